package main

import (
	"fmt"
	"slices"
	"strings"
)

// row is one line of the page's table: the figure it states, the
// target, the command that measures it and the rule that writes the
// "measured" cell from that command's benchmark output.
//
// A row measured by another command than `go test` (a binary timed by
// /usr/bin/time, a script driving tmux) has no rule: hand is the date it
// was measured, its cell says so, and the program leaves it as it is.
type row struct {
	figure string
	target string
	cmd    string // as the page shows it; run without a shell
	cell   func(r *results) string
	hand   string // YYYY-MM-DD, for a row measured by hand
}

// allRows is every row the page holds. Their order is the page's: a row
// missing from the page is added at its end.
func allRows() []row {
	return slices.Concat(loadRows(), liveRows(), tuiRows(), fleetRows(), modelRows())
}

// handNote is what the measured cell of a row measured by hand must say.
func (rw row) handNote() string { return "measured by hand on " + rw.hand }

// args splits a row's command into words as a shell would: words apart
// by spaces, a single-quoted part taken as it is. Nothing else of a
// shell's syntax is accepted, so the page shows exactly what runs.
func args(cmd string) ([]string, error) {
	var out []string
	var word strings.Builder
	inWord, quoted := false, false
	for _, c := range cmd {
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			word.WriteRune(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == ' ':
			if inWord {
				out = append(out, word.String())
				word.Reset()
				inWord = false
			}
		case strings.ContainsRune("\"\\$`;&|<>*?()", c):
			return nil, fmt.Errorf("%q: %q is not accepted outside single quotes", cmd, c)
		default:
			word.WriteRune(c)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("%q: unterminated quote", cmd)
	}
	if inWord {
		out = append(out, word.String())
	}
	return out, nil
}
