package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"ohwatch/client/agentserver"
	"ohwatch/model"
)

// usageError is a mistake on the command line: what was wrong, in one
// line, and how to put it right. Bad usage never answers with the whole
// help text: a user who typed most of a command right needs to see the one
// thing that was not.
type usageError struct {
	mistake string
	hint    string
}

// Error implements error.
func (e *usageError) Error() string { return e.mistake }

// usageErr returns a usage error; an empty hint points at the command's
// help.
func usageErr(mistake, hint string) error { return &usageError{mistake: mistake, hint: hint} }

// reportUsage prints a command-line mistake as one line naming it and one
// line of hint, and returns exit code 2. Parse errors of the flag package
// are reworded so that flags read as they are typed (--flag).
func reportUsage(w io.Writer, cmd string, err error) int {
	mistake, hint := err.Error(), ""
	var ue *usageError
	if errors.As(err, &ue) {
		hint = ue.hint
	} else {
		mistake = flagMistake(mistake)
	}
	if hint == "" {
		hint = fmt.Sprintf("'ohwatch %s -h' lists its arguments and flags", cmd)
	}
	fmt.Fprintf(w, "ohwatch %s: %s\n", cmd, model.SanitizeLine(mistake))
	fmt.Fprintf(w, "  hint: %s\n", model.SanitizeLine(hint))
	return exitUsage
}

// flagSpelling matches the flag package's "-name" in its messages.
var flagSpelling = regexp.MustCompile(`(^|[\s:])-([A-Za-z][\w-]*)`)

// flagMistake rewords a parse error of the flag package.
func flagMistake(msg string) string {
	switch {
	case strings.HasPrefix(msg, "flag provided but not defined: "):
		return "unknown flag " + dashes(strings.TrimPrefix(msg, "flag provided but not defined: "))
	case strings.HasPrefix(msg, "flag needs an argument: "):
		return dashes(strings.TrimPrefix(msg, "flag needs an argument: ")) + " needs a value"
	}
	return flagSpelling.ReplaceAllString(strings.Replace(msg, " for flag -", " for -", 1), "$1--$2")
}

// dashes spells a flag name the way the README does: --name.
func dashes(name string) string { return "--" + strings.TrimLeft(name, "-") }

// printHelp prints a command's usage line and its flags, each spelled
// --flag as the README spells them (the flag package prints -flag).
func printHelp(w io.Writer, fs *flag.FlagSet, usageLine string) {
	fmt.Fprintf(w, "Usage: ohwatch %s\n\nFlags:\n", usageLine)
	fs.VisitAll(func(f *flag.Flag) {
		name, text := flag.UnquoteUsage(f)
		line := "  " + dashes(f.Name)
		if name != "" {
			line += " " + name
		}
		fmt.Fprintln(w, line)
		if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "0s" && !strings.Contains(text, "(default") {
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					def = fmt.Sprintf("%q", def)
				}
			}
			text += fmt.Sprintf(" (default %s)", def)
		}
		fmt.Fprintf(w, "    \t%s\n", strings.ReplaceAll(text, "\n", "\n    \t"))
	})
}

// onePath checks the positional arguments of a command that takes exactly
// one PATH (what names what the path is for).
func onePath(pos []string, what, hint string) error {
	switch {
	case len(pos) == 0:
		return usageErr("missing "+what, hint)
	case len(pos) > 1:
		return usageErr(fmt.Sprintf("unexpected argument %q (only one %s)", pos[1], what), hint)
	}
	return nil
}

// noArgs checks that a command got no positional argument.
func noArgs(pos []string, hint string) error {
	if len(pos) > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", pos[0]), hint)
	}
	return nil
}

// checkServerURL catches the agent-server URL typed without its scheme
// ("127.0.0.1:8000"), which Go's URL parser would otherwise describe as
// "first path segment in URL cannot contain colon".
func checkServerURL(raw string) error {
	s := strings.TrimSpace(raw)
	if !strings.Contains(s, "://") {
		return usageErr(fmt.Sprintf("the URL %q has no scheme", s), fmt.Sprintf("write it as http://%s (or https://)", s))
	}
	if _, err := agentserver.New(s, ""); err != nil {
		return usageErr(err.Error(), "write it as http://HOST:PORT or https://HOST[/PREFIX]")
	}
	return nil
}

// checkConversationID accepts a conversation id as the agent-server and
// the Cloud spell it: a UUID, dashed or not.
func checkConversationID(id, hint string) error {
	if model.IsConversationID(id) {
		return nil
	}
	return usageErr(fmt.Sprintf("--conversation %q is neither a UUID nor 32 hex digits", id), hint)
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// missingPath names a PATH argument that cannot be used; a path that looks
// like an agent-server address without its scheme gets that hint.
func missingPath(path string, err error, hint string) error {
	if looksLikeHostPort(path) {
		hint = fmt.Sprintf("for an agent-server, write the URL with its scheme: http://%s", path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return usageErr(fmt.Sprintf("%s does not exist", path), hint)
	}
	return usageErr(fmt.Sprintf("%s: %v", path, shortPathError(err)), hint)
}

// hostPort matches "host:port" as typed for a server.
var hostPort = regexp.MustCompile(`^[\w.-]+:\d+(/.*)?$`)

// looksLikeHostPort reports whether s reads like host:port rather than a
// file name.
func looksLikeHostPort(s string) bool { return hostPort.MatchString(s) }

// shortPathError drops the path an *fs.PathError repeats.
func shortPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// existingPath checks the one PATH a command reads.
func existingPath(path string) error {
	if _, err := os.Stat(path); err != nil {
		return missingPath(path, err, "give a conversation directory, a JSONL file or a trajectory zip")
	}
	return nil
}
