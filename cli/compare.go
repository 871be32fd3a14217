package cli

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"ohwatch/model"
	"ohwatch/session"
)

// compareUsage is the usage line of `ohwatch compare`.
const compareUsage = "compare A [B] [--json | --md] [--session-key-file F]"

// newCompare is `ohwatch compare A B`: two runs lined up step by step,
// in the compare screen, or the report (--json, --md, text when stdout is
// not a terminal). A run is a recording's path or an agent-server
// conversation, http://HOST:PORT/api/conversations/ID (or
// http://HOST:PORT#ID). `compare FORK` compares a fork with the
// conversation it was forked from, along the branch it was forked from.
func newCompare(env *session.Env) *cobra.Command {
	var asJSON, asMD bool
	var keyFile string
	cmd := &cobra.Command{
		Use:   compareUsage,
		Short: "compare two runs step by step: compare A B [--json|--md], or compare FORK",
		RunE: func(cmd *cobra.Command, p []string) error {
			runs, err := compareRuns(p, asJSON, asMD)
			if err != nil {
				return err
			}
			key, err := session.Key(keyFile, "", env.Getenv, env.Stderr)
			if err != nil {
				return usageErr(err.Error(), "--session-key-file names a file holding the key, or set SESSION_API_KEY")
			}
			secrets := new(model.Secrets)
			secrets.Add(key)
			env, flush := env.WithSecrets(secrets)
			defer flush()
			ctx, stop := session.Interruptible()
			defer stop()
			format := session.CompareScreen
			switch {
			case asJSON:
				format = session.CompareJSON
			case asMD:
				format = session.CompareMarkdown
			case !env.IsTerminal:
				format = session.CompareText
			}
			return exit(session.Compare(ctx, env, runs, key, format))
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&asJSON, "json", false, "print the report as one JSON object instead of the compare screen")
	fs.BoolVar(&asMD, "md", false, "print the report as markdown (for a pull request or a notebook)")
	fs.StringVar(&keyFile, "session-key-file", "", "read the agent-server's session key from `FILE` (else SESSION_API_KEY)")
	return cmd
}

// compareRuns checks compare's arguments: one or two runs, one report
// format at most.
func compareRuns(p []string, asJSON, asMD bool) ([]session.CompareRun, error) {
	const hint = "ohwatch compare A B (recording paths or http://HOST:PORT/api/conversations/ID), or compare FORK"
	switch {
	case len(p) == 0:
		return nil, usageErr("missing the runs to compare", hint)
	case len(p) > 2:
		return nil, usageErr(fmt.Sprintf("unexpected argument %q (two runs at most)", p[2]), hint)
	case asJSON && asMD:
		return nil, usageErr("--json and --md both given", "pick one report format")
	}
	runs := make([]session.CompareRun, 0, len(p))
	for _, s := range p {
		run, err := parseRun(s)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// parseRun reads a run: a URL with a scheme is an agent-server
// conversation, anything else a path that must exist.
func parseRun(s string) (session.CompareRun, error) {
	if !strings.Contains(s, "://") {
		if err := existingPath(s); err != nil {
			return session.CompareRun{}, err
		}
		return session.CompareRun{Path: s}, nil
	}
	const hint = "name the conversation: http://HOST:PORT/api/conversations/ID (or http://HOST:PORT#ID)"
	u, err := url.Parse(s)
	if err != nil {
		return session.CompareRun{}, usageErr(fmt.Sprintf("%q is not a URL", s), hint)
	}
	id := u.Fragment
	u.Fragment = ""
	if id == "" {
		k := strings.LastIndex(u.Path, "/conversations/")
		if k < 0 {
			return session.CompareRun{}, usageErr(fmt.Sprintf("%s names no conversation", u.Redacted()), hint)
		}
		id = strings.Trim(u.Path[k+len("/conversations/"):], "/")
		u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path[:k], "/api"), "/")
	}
	base := u.String()
	if err := checkServerURL(base); err != nil {
		return session.CompareRun{}, err
	}
	if err := checkConversationID(id, hint); err != nil {
		return session.CompareRun{}, err
	}
	return session.CompareRun{Server: base, ID: model.NormalizeConversationID(id)}, nil
}
