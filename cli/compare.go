package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"ohwatch/client/cloud"
	"ohwatch/internal/redact"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/session"
)

// compareUsage is the usage line of `ohwatch compare`.
const compareUsage = "compare A [B] [--json | --md] [--session-key-file F]"

// newCompare is `ohwatch compare A B`: two runs lined up step by step,
// in the compare screen, or the report (--json, --md, text when stdout is
// not a terminal). A run is a recording's path, an agent-server
// conversation, http://HOST:PORT/api/conversations/ID (or
// http://HOST:PORT#ID), or a Cloud conversation, cloud:ID (OH_API_KEY,
// OH_API_BASE). `compare FORK` compares a fork with the
// conversation it was forked from, along the branch it was forked from.
func newCompare(env *session.Env) *cobra.Command {
	var asJSON, asMD bool
	var keyFile string
	cmd := &cobra.Command{
		Use:   compareUsage,
		Short: "compare two runs step by step: compare A B [--json|--md], or compare FORK",
		Long: `Compare two runs step by step: where they part, what each cost.

A run is a recording's path (a conversation directory, a JSONL file, a
trajectory zip), an agent-server conversation
(http://HOST:PORT/api/conversations/ID or http://HOST:PORT#ID; its key from
SESSION_API_KEY or --session-key-file), or an OpenHands Cloud conversation,
cloud:ID (the key from OH_API_KEY, the app server from OH_API_BASE): a
running one is watched on its sandbox's agent-server, a paused one read
from the events Cloud stored, without resuming its sandbox. Runs mix
freely. compare FORK alone compares a fork with the conversation it was
forked from.

The screen follows live runs as they go; --json, --md and the text report
read each run as it stands when asked.`,
		RunE: func(cmd *cobra.Command, p []string) error {
			runs, err := compareRuns(p, asJSON, asMD)
			if err != nil {
				return err
			}
			key, err := session.Key(keyFile, "", env.Getenv, env.Stderr)
			if err != nil {
				return usageErr(err.Error(), "--session-key-file names a file holding the key, or set SESSION_API_KEY")
			}
			secrets := new(redact.Secrets)
			secrets.Add(key)
			// A run read from files may hold the keys its agent echoed.
			session.AddEnvSecrets(secrets, env.Getenv)
			keys := session.CompareKeys{Session: key, Secrets: secrets}
			if anyCloud(runs) {
				if keys.Cloud, err = cloudConfig(env); err != nil {
					return err
				}
				secrets.Add(keys.Cloud.APIKey)
			}
			env, flush := env.WithSecrets(secrets)
			defer flush()
			keys.Warn = func(w string) { fmt.Fprintf(env.Stderr, "ohwatch compare: warning: %s\n", sanitize.Line(w)) }
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
			return exit(session.Compare(ctx, env, runs, keys, format))
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
	const hint = "ohwatch compare A B (recording paths, http://HOST:PORT/api/conversations/ID or cloud:ID), or compare FORK"
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

// parseRun reads a run: cloud:ID is a Cloud conversation, a URL with a
// scheme an agent-server conversation, anything else a path that must
// exist.
func parseRun(s string) (session.CompareRun, error) {
	if id, ok := strings.CutPrefix(s, session.CloudRunPrefix); ok {
		if err := checkConversationID(id, "copy the id from the conversation's Cloud URL: cloud:ID"); err != nil {
			return session.CompareRun{}, err
		}
		return session.CompareRun{Cloud: true, ID: model.NormalizeConversationID(id)}, nil
	}
	if !strings.Contains(s, "://") {
		if err := existingPath(s); err != nil {
			return session.CompareRun{}, err
		}
		return session.CompareRun{Path: s}, nil
	}
	base, id, err := splitConversationURL(s)
	if err != nil {
		return session.CompareRun{}, err
	}
	if id == "" {
		return session.CompareRun{}, usageErr(fmt.Sprintf("%s names no conversation", redactedURL(base)), conversationURLHint)
	}
	if err := checkConversationID(id, conversationURLHint); err != nil {
		return session.CompareRun{}, err
	}
	return session.CompareRun{Server: base, ID: model.NormalizeConversationID(id)}, nil
}

// anyCloud reports whether a run is a Cloud conversation.
func anyCloud(runs []session.CompareRun) bool {
	for _, r := range runs {
		if r.Cloud {
			return true
		}
	}
	return false
}

// cloudConfig is the Cloud account a Cloud run is read with: OH_API_KEY
// and OH_API_BASE, as `ohwatch cloud` reads them.
func cloudConfig(env *session.Env) (cloud.Config, error) {
	cfg, err := cloud.ConfigFromEnv(env.Getenv)
	if err != nil {
		return cfg, usageErr(err.Error(), "fix the variable or unset it")
	}
	if cfg.APIKey == "" {
		return cfg, usageErr("no OpenHands Cloud API key for a cloud: run", "set OH_API_KEY (your key from the Cloud settings)")
	}
	return cfg, nil
}
