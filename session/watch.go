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
	"ohwatch/tui"
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
	// A server never reached fails fast (exit 4); one that was live keeps
	// being retried, with the header counting the attempts.
	s := serverSession(ctx, c, id, title)
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

// Respond implements tui.Controls: the answer goes out only if the server
// still waits on exactly the actions the user was asked about.
func (cf confirmer) Respond(ctx context.Context, accept bool, actionIDs []string) error {
	err := cf.c.RespondToActions(ctx, cf.id, actionIDs, accept, "Rejected in ohwatch.")
	var nw *agentserver.NotWaitingError
	if errors.As(err, &nw) {
		return fmt.Errorf("%w: %s", tui.ErrNotSent, nw.Reason)
	}
	return err
}
