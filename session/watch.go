package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/headless"
	"ohwatch/model"
	convui "ohwatch/tui/conversation"
)

// Watch watches one conversation of an agent-server, headless or in the
// TUI. title may be empty: the server's title is used.
func Watch(ctx context.Context, env *Env, o Options, logger *slog.Logger, url, id, key, title string) int {
	c, err := agentserver.New(url, key, agentserver.WithLogger(logger))
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch: %v\n", err)
		return headless.ExitUsage
	}
	id = model.NormalizeConversationID(id)
	if title == "" {
		// The server chose it: it may echo a key like any other answer.
		title = o.Secrets.Redact(serverTitle(ctx, c, id))
	}
	// A server never reached fails fast (exit 4), or after --wait; one
	// that was live keeps being retried, with the header counting the
	// attempts. In the TUI, r starts a watch that gave up again.
	wopts := agentserver.WatchOptions{FirstAttempts: 3, FirstWait: o.Wait}
	var s conversation
	if o.Headless {
		s = serverSessionFed(ctx, c, id, title, c.Watch(ctx, id, wopts))
	} else {
		feed, retry := retryableWatch(ctx, c, id, wopts)
		s = serverSessionFed(ctx, c, id, title, feed)
		s.retry, s.firstWait = retry, o.Wait
	}
	links := newServerLinks(c, id)
	s.links = links
	if b, ok := s.branching.(brancher); ok {
		// A fork made here shows under its event at once, not at the
		// links' next refresh, and the views opened from here (a fork
		// made with b) have links of their own.
		b.rel = links.rel
		s.branching = b
	}
	s.feed = loggedWarnings(ctx, logger, s.feed)
	return present(ctx, env, o, s)
}

// retryableWatch is the watch of one conversation over a feed that stays
// open when the watch gives up, so the TUI's r can start it again over the
// same feed (the --record and --otlp tees keep reading it): retry asks for
// a new attempt once the watch has ended (the final state it delivers
// comes just before it ends), and reports false when one is already asked
// for. The feed closes when ctx ends.
func retryableWatch(ctx context.Context, c *agentserver.Client, id string, opts agentserver.WatchOptions) (<-chan model.Batch, func() bool) {
	out := make(chan model.Batch)
	again := make(chan struct{}, 1)
	go func() {
		defer close(out)
		for {
			for b := range c.Watch(ctx, id, opts) {
				select {
				case out <- b:
				case <-ctx.Done():
					return
				}
			}
			select {
			case <-again:
			case <-ctx.Done():
				return
			}
		}
	}()
	retry := func() bool {
		select {
		case again <- struct{}{}:
			return true
		default:
			return false
		}
	}
	return out, retry
}

// serverTitle asks the server for the conversation's title, briefly: the
// header falls back to the id, and the watch itself reports any real
// connection problem.
func serverTitle(ctx context.Context, c *agentserver.Client, id string) string {
	tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if info, err := c.Conversation(tctx, id); err == nil && info.Title != "" {
		return info.Title
	}
	return id
}

// confirmer answers a waiting conversation through the agent-server.
type confirmer struct {
	c  *agentserver.Client
	id string
}

// Respond implements convui.Controls: the answer goes out only if the server
// still waits on exactly the actions the user was asked about.
func (cf confirmer) Respond(ctx context.Context, accept bool, actionIDs []string) error {
	err := cf.c.RespondToActions(ctx, cf.id, actionIDs, accept, "Rejected in ohwatch.")
	var nw *agentserver.NotWaitingError
	if errors.As(err, &nw) {
		return fmt.Errorf("%w: %s", convui.ErrNotSent, nw.Reason)
	}
	return err
}
