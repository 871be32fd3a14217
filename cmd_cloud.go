package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"ohwatch/client/cloud"
	"ohwatch/headless"
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
	_, code, ok := parseCommand(fs, args, func(p []string) bool { return len(p) == 0 })
	if !ok {
		return code
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "api-key" {
			fmt.Fprintln(env.stderr, "ohwatch: warning: --api-key is visible to other users of this machine; prefer OH_API_KEY")
		}
	})
	if cfg.APIKey == "" {
		fmt.Fprintln(env.stderr, "ohwatch cloud: set OH_API_KEY (or --api-key)")
		return exitUsage
	}
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
		fmt.Fprintf(env.stderr, "ohwatch cloud: %v\n", err)
		if errors.Is(err, cloud.ErrAuth) {
			return headless.ExitUnreachable
		}
		return 1
	}
	progress("watching " + target.String())
	return watchAgentServer(ctx, env, &vf, logger, target.AgentServerURL, target.ConversationID, target.SessionKey, "")
}
