package session

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/headless"
	"ohwatch/internal/sanitize"
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
	code := Watch(ctx, env, o, logger, target.AgentServerURL, target.ConversationID, target.SessionKey, "")
	if sess.SandboxID() != "" && !cfg.Keep {
		awaitStored(ctx, env, sess, target)
	}
	return code
}

// awaitStored holds the delete of a sandbox this command started until
// Cloud has stored every event of the conversation: the agent-server
// posts them in batches, and deleting it first would cut the end of the
// run out of Cloud's record for good. The events are the agent-server's
// own log (every event the watch saw, and any it missed). The wait is
// bounded; what it could not save is said plainly.
func awaitStored(ctx context.Context, env *Env, sess *cloud.Session, target cloud.Target) {
	if ctx.Err() != nil {
		fmt.Fprintln(env.Stderr, "ohwatch cloud: interrupted: not waiting for Cloud to store the last events before deleting the sandbox")
		return
	}
	c, err := agentserver.New(target.AgentServerURL, target.SessionKey)
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch cloud: warning: cannot tell whether Cloud stored every event: %s\n", sanitize.Line(sess.Redact(err.Error())))
		return
	}
	evs, err := c.Events(ctx, target.ConversationID)
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch cloud: warning: cannot tell whether Cloud stored every event: %s\n", sanitize.Line(sess.Redact(err.Error())))
		return
	}
	ids := make([]string, 0, len(evs))
	for _, ev := range evs {
		if ev.ID != "" {
			ids = append(ids, ev.ID)
		}
	}
	stored, err := sess.AwaitStored(ctx, target.ConversationID, ids)
	switch {
	case err != nil && stored == 0:
		fmt.Fprintf(env.Stderr, "ohwatch cloud: warning: cannot tell whether Cloud stored the %d events seen live (%s); deleting the sandbox may lose them (--keep keeps it)\n",
			len(ids), sanitize.Line(sess.Redact(err.Error())))
	case stored < len(ids):
		fmt.Fprintf(env.Stderr, "ohwatch cloud: warning: Cloud stored only %d of the %d events seen live; deleting the sandbox loses the other %d from Cloud's record (--keep keeps it)\n",
			stored, len(ids), len(ids)-stored)
	default:
		fmt.Fprintf(env.Stderr, "cloud: Cloud has stored all %d events seen live\n", len(ids))
	}
}
