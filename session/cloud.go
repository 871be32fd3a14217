package session

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"ohwatch/client/cloud"
	"ohwatch/headless"
)

// Cloud starts (or attaches to) an OpenHands Cloud conversation with cfg
// and watches it on its sandbox's agent-server; the sandbox is deleted on
// every way out unless cfg keeps it. Its session key joins o.Secrets.
// progress reports each stage.
func Cloud(ctx context.Context, env *Env, o Options, logger *slog.Logger, cfg cloud.Config, progress func(string)) int {
	sess, err := cloud.New(cfg)
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch cloud: %v\n", err)
		return headless.ExitUsage
	}
	// The sandbox is deleted on every way out — success, failure, Ctrl-C —
	// with a fresh context, since ctx may be the thing that was cancelled.
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := sess.Close(cctx); err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch cloud: cleanup: %v\n", err)
		}
	}()
	target, err := sess.Open(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return InterruptedExit(ctx)
		}
		// Whatever stopped the start — a rejected key, Cloud answering 500,
		// a sandbox that never ran — no conversation was reached: exit 4.
		// Exit 1 means a conversation that ended in error.
		fmt.Fprintf(env.Stderr, "ohwatch cloud: %v\n", err)
		return headless.ExitUnreachable
	}
	o.Secrets.Add(target.SessionKey)
	progress("watching " + target.String())
	return Watch(ctx, env, o, logger, target.AgentServerURL, target.ConversationID, target.SessionKey, "")
}
