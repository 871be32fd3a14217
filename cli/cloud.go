package cli

import (
	"flag"
	"fmt"

	"github.com/spf13/cobra"

	"ohwatch/client/cloud"
	"ohwatch/internal/redact"
	"ohwatch/session"
)

func newCloud(env *session.Env) *cobra.Command {
	var vf viewFlags
	cfg, cfgErr := cloud.ConfigFromEnv(env.Getenv)
	if cfg.Message == "" {
		cfg.Message = "Say hello in one short sentence, then stop."
	}
	cmd := &cobra.Command{
		Use:   "cloud [--message TEXT] [--keep] [--sandbox-spec-id ID] | cloud --conversation ID",
		Short: "start or attach to an OpenHands Cloud conversation and watch it",
		RunE: func(cmd *cobra.Command, p []string) error {
			if cfgErr != nil {
				fmt.Fprintf(env.Stderr, "ohwatch cloud: %v\n", cfgErr)
				return exitCode(exitUsage)
			}
			if err := noArgs(p, "ohwatch cloud [--message TEXT] or ohwatch cloud --conversation ID"); err != nil {
				return err
			}
			if cfg.ConversationID != "" {
				if err := checkConversationID(cfg.ConversationID, "copy the id from the conversation's Cloud URL"); err != nil {
					return err
				}
			}
			if cmd.Flags().Changed("api-key") {
				fmt.Fprintln(env.Stderr, "ohwatch: warning: --api-key is visible to other users of this machine; prefer OH_API_KEY")
			}
			if cfg.APIKey == "" {
				return usageErr("no OpenHands Cloud API key", "set OH_API_KEY (your key from the Cloud settings), or pass --api-key")
			}
			// Neither the API key nor the sandbox's session key, learnt later,
			// reaches the terminal or the log in any form.
			secrets := new(redact.Secrets)
			secrets.Add(cfg.APIKey)
			env, flush := env.WithSecrets(secrets)
			defer flush()
			o, err := vf.options(env, secrets)
			if err != nil {
				return err
			}
			logger, closeLog, err := session.OpenLog(vf.logFile, secrets)
			if err != nil {
				fmt.Fprintf(env.Stderr, "ohwatch cloud: %v\n", err)
				return exitCode(exitUsage)
			}
			defer closeLog()
			cfg.Logger = logger
			progress := func(stage string) { fmt.Fprintf(env.Stderr, "cloud: %s\n", stage) }
			cfg.OnProgress = progress
			ctx, stop := session.Interruptible()
			defer stop()
			return exit(session.Cloud(ctx, env, o, logger, cfg, progress))
		},
	}
	// The Cloud client's own flags, as it defines them.
	gofs := flag.NewFlagSet("cloud", flag.ContinueOnError)
	cloud.BindFlags(gofs, &cfg)
	cmd.Flags().AddGoFlagSet(gofs)
	vf.bind(cmd.Flags())
	return cmd
}
