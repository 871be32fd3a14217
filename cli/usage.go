package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"ohwatch/client/agentserver"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/session"
)

// usageErr returns a usage error; an empty hint points at the command's
// help.
func usageErr(mistake, hint string) error { return session.Usage(mistake, hint) }

// reportUsage prints a command-line mistake as one line naming it and one
// line of hint, and returns exit code 2. Parse errors of the flag parser
// are reworded as the README words flags. cmd is "" for ohwatch itself.
func reportUsage(w io.Writer, cmd string, err error) int {
	var ue *session.UsageError
	if !errors.As(err, &ue) {
		err = usageErr(flagMistake(err.Error()), "")
	}
	if cmd == "" {
		errors.As(err, &ue)
		hint := ue.Hint
		if hint == "" {
			hint = "'ohwatch help' lists the commands"
		}
		fmt.Fprintf(w, "ohwatch: %s\n  hint: %s\n", sanitize.Line(ue.Mistake), sanitize.Line(hint))
		return exitUsage
	}
	return session.ReportUsage(w, cmd, err)
}

var (
	// invalidValue matches pflag's invalid-value message.
	invalidValue = regexp.MustCompile(`^invalid argument (".*") for "(?:-\w, )?(--[\w-]+)" flag: (?:\w+\.\w+: )?(.*)$`)
	// shorthandFlag matches pflag's spelling of a one-letter flag in
	// messages: 'o' in -o.
	shorthandFlag = regexp.MustCompile(`'(\w)' in -\w+`)
)

// flagMistake rewords a parse error of the flag parser.
func flagMistake(msg string) string {
	msg = shorthandFlag.ReplaceAllString(msg, "-$1")
	switch {
	case strings.HasPrefix(msg, "unknown flag: "):
		return "unknown flag " + strings.TrimPrefix(msg, "unknown flag: ")
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		return "unknown flag " + strings.TrimPrefix(msg, "unknown shorthand flag: ")
	case strings.HasPrefix(msg, "flag needs an argument: "):
		return strings.TrimPrefix(msg, "flag needs an argument: ") + " needs a value"
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("invalid value %s for %s: %s", m[1], m[2], m[3])
	}
	return msg
}

// singleDashFlag finds a long flag of cmd typed with one dash (-headless),
// which the parser would read as a row of one-letter flags.
func singleDashFlag(cmd *cobra.Command, args []string) error {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(name) > 1 && cmd.Flags().Lookup(name) != nil {
			return usageErr(fmt.Sprintf("unknown flag %s", a), fmt.Sprintf("flags take two dashes: --%s", name))
		}
	}
	return nil
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
