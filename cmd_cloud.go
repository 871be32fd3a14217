package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"ohwatch/client/cloud"
	"ohwatch/headless"
	"ohwatch/model"
)

func runCloud(args []string, env *environment) int {
	fs := newFlagSet("cloud", "cloud [--message TEXT] [--keep] [--sandbox-spec-id ID] | cloud --conversation ID", env.stderr)
	cfg, err := cloud.ConfigFromEnv(env.getenv)
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch cloud: %v\n", err)
		return exitUsage
	}
	if cfg.Message == "" {
		cfg.Message = "Say hello in one short sentence, then stop."
	}
	cloud.BindFlags(fs, &cfg)
	var vf viewFlags
	vf.bind(fs)
	_, code, ok := checkCommand(fs, args, func(p []string) error {
		if err := noArgs(p, "ohwatch cloud [--message TEXT] or ohwatch cloud --conversation ID"); err != nil {
			return err
		}
		if cfg.ConversationID != "" {
			return checkConversationID(cfg.ConversationID, "copy the id from the conversation's Cloud URL")
		}
		return nil
	})
	if !ok {
		return code
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "api-key" {
			fmt.Fprintln(env.stderr, "ohwatch: warning: --api-key is visible to other users of this machine; prefer OH_API_KEY")
		}
	})
	if cfg.APIKey == "" {
		return reportUsage(env.stderr, "cloud", usageErr("no OpenHands Cloud API key",
			"set OH_API_KEY (your key from the Cloud settings), or pass --api-key"))
	}
	// Neither the API key nor the sandbox's session key, learnt later,
	// reaches the terminal or the log in any form.
	vf.secrets = new(model.Secrets)
	vf.secrets.Add(cfg.APIKey)
	env, flush := env.withSecrets(vf.secrets)
	defer flush()
	logger, closeLog, err := vf.logger()
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch cloud: %v\n", err)
		return exitUsage
	}
	defer closeLog()
	cfg.Logger = logger
	progress := func(stage string) { fmt.Fprintf(env.stderr, "cloud: %s\n", stage) }
	cfg.OnProgress = progress

	sess, err := cloud.New(cfg)
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch cloud: %v\n", err)
		return exitUsage
	}
	ctx, stop := interruptible()
	defer stop()
	// The sandbox is deleted on every way out — success, failure, Ctrl-C —
	// with a fresh context, since ctx may be the thing that was cancelled.
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := sess.Close(cctx); err != nil {
			fmt.Fprintf(env.stderr, "ohwatch cloud: cleanup: %v\n", err)
		}
	}()
	target, err := sess.Open(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedExit(ctx)
		}
		// Whatever stopped the start — a rejected key, Cloud answering 500,
		// a sandbox that never ran — no conversation was reached: exit 4.
		// Exit 1 means a conversation that ended in error.
		fmt.Fprintf(env.stderr, "ohwatch cloud: %v\n", err)
		return headless.ExitUnreachable
	}
	vf.secrets.Add(target.SessionKey)
	progress("watching " + target.String())
	return watchAgentServer(ctx, env, &vf, logger, target.AgentServerURL, target.ConversationID, target.SessionKey, "")
}
