package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"ohwatch/internal/redact"
	"ohwatch/model"
	"ohwatch/session"
)

func newWatch(env *session.Env) *cobra.Command {
	var vf viewFlags
	var conv, keyFile, keyFlag string
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "watch URL [--conversation ID] [--session-key-file F] [--headless] [--json] [--wait DURATION]",
		Short: "watch an agent-server conversation live",
		RunE: func(cmd *cobra.Command, p []string) error {
			const hint = "ohwatch watch http://HOST:PORT --conversation ID (or http://HOST:PORT/api/conversations/ID)"
			switch {
			case len(p) == 0:
				return usageErr("missing the agent-server URL", hint)
			case len(p) > 1:
				return usageErr(fmt.Sprintf("unexpected argument %q (only one URL)", p[1]), hint)
			}
			base, named, err := splitConversationURL(p[0])
			if err != nil {
				return err
			}
			list := "'ohwatch ls " + redactedURL(base) + "' lists them"
			switch {
			case named != "" && conv != "" && model.NormalizeConversationID(named) != model.NormalizeConversationID(conv):
				return usageErr(fmt.Sprintf("the URL names conversation %s and --conversation %s", named, conv), "name it once: in the URL or with --conversation")
			case named != "":
				conv = named
			case conv == "":
				return usageErr("missing --conversation ID", "ohwatch watch "+redactedURL(base)+" --conversation ID ("+list+")")
			}
			if named != "" && !model.IsConversationID(named) {
				return usageErr(fmt.Sprintf("the URL's conversation %q is neither a UUID nor 32 hex digits", named), "copy the id from the agent-server ("+list+")")
			}
			if err := checkConversationID(conv, "copy the id from the agent-server ("+list+")"); err != nil {
				return err
			}
			key, err := session.Key(keyFile, keyFlag, env.Getenv, env.Stderr)
			if err != nil {
				return usageErr(err.Error(), "--session-key-file names a file holding the key, or set SESSION_API_KEY")
			}
			// Whatever a server echoes, the key does not reach the terminal or
			// the log in any form.
			secrets := new(redact.Secrets)
			secrets.Add(key)
			env, flush := env.WithSecrets(secrets)
			defer flush()
			o, err := vf.options(env, secrets)
			if err != nil {
				return err
			}
			if wait < 0 {
				return usageErr(fmt.Sprintf("--wait must be 0 or more, not %s", wait), "--wait 2m keeps trying a server that is not up yet for two minutes")
			}
			o.Wait = wait
			logger, closeLog, err := session.OpenLog(vf.logFile, secrets)
			if err != nil {
				fmt.Fprintf(env.Stderr, "ohwatch watch: %v\n", err)
				return exitCode(exitUsage)
			}
			defer closeLog()
			ctx, stop := session.Interruptible()
			defer stop()
			return exit(session.Watch(ctx, env, o, logger, base, conv, key, ""))
		},
	}
	vf.bind(cmd.Flags())
	cmd.Flags().StringVar(&conv, "conversation", "", "the conversation `ID` (dashed uuid or 32 hex)")
	cmd.Flags().StringVar(&keyFile, "session-key-file", "", "read the session key from `FILE` (else SESSION_API_KEY)")
	cmd.Flags().StringVar(&keyFlag, "session-key", "", "the session key (visible to other users: prefer SESSION_API_KEY)")
	cmd.Flags().DurationVar(&wait, "wait", 0, "keep trying a first connection this `long` (a server that is coming) instead of giving up after a few attempts (about 5 s)")
	return cmd
}
