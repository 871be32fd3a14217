package session

import (
	"errors"
	"fmt"
	"io"

	"ohwatch/headless"
	"ohwatch/internal/sanitize"
)

// UsageError is a mistake on the command line: what was wrong, in one
// line, and how to put it right. Bad usage never answers with the whole
// help text: a user who typed most of a command right needs to see the one
// thing that was not.
type UsageError struct {
	Mistake string
	// Hint says how to put it right; "" points at the command's help.
	Hint string
}

// Error implements error.
func (e *UsageError) Error() string { return e.Mistake }

// Usage returns a usage error.
func Usage(mistake, hint string) error { return &UsageError{Mistake: mistake, Hint: hint} }

// ReportUsage prints a command-line mistake as one line naming it and one
// line of hint, and returns exit code 2.
func ReportUsage(w io.Writer, cmd string, err error) int {
	mistake, hint := err.Error(), ""
	var ue *UsageError
	if errors.As(err, &ue) {
		hint = ue.Hint
	}
	if hint == "" {
		hint = fmt.Sprintf("'ohwatch %s -h' lists its arguments and flags", cmd)
	}
	fmt.Fprintf(w, "ohwatch %s: %s\n", cmd, sanitize.Line(mistake))
	fmt.Fprintf(w, "  hint: %s\n", sanitize.Line(hint))
	return headless.ExitUsage
}
