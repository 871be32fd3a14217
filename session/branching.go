package session

import (
	"context"
	"errors"

	"ohwatch/client/agentserver"
	"ohwatch/model"
	"ohwatch/reducer"
	convui "ohwatch/tui/conversation"
)

// brancher forks and navigates one conversation of an agent-server for the
// TUI (convui.Branching), and opens the forks it makes as live views.
type brancher struct {
	// ctx bounds the watches of the conversations it opens: the session's.
	ctx context.Context
	c   *agentserver.Client
	id  string
	// fleet is set under `fleet`: the fleet table lists a fork under its
	// parent by itself, so Open leaves it to the table.
	fleet bool
	// rel, when set, is the server's listing the views of `watch` share
	// for their links: a fork made makes it stale (the view's links read
	// it again at once, not at their next refresh), and a view this
	// opens gets links over it too.
	rel *relatives
}

// Fork implements convui.Branching: the fork from the event, then its first
// message, or a run on from the fork point when there is none.
func (b brancher) Fork(ctx context.Context, fromEventID, title, message string) (string, error) {
	id, err := b.c.Fork(ctx, b.id, fromEventID, title, true)
	if id != "" && b.rel != nil {
		b.rel.stale()
	}
	switch {
	case errors.Is(err, agentserver.ErrWholeFork):
		return id, err // a whole copy exists: say so, open it anyway
	case err != nil:
		return "", treeErr(err)
	}
	if message != "" {
		return id, b.c.SendMessage(ctx, id, message)
	}
	return id, b.c.Run(ctx, id)
}

// Navigate implements convui.Branching.
func (b brancher) Navigate(ctx context.Context, eventID string) error {
	return treeErr(b.c.Navigate(ctx, b.id, eventID))
}

// Open implements convui.Branching: a live watch of conversation id on the
// same server, with the same powers over it, for as long as ctx (the
// view's) and the session last.
func (b brancher) Open(ctx context.Context, id string) (convui.Options, bool) {
	if b.fleet {
		return convui.Options{}, false
	}
	id = model.NormalizeConversationID(id)
	ctx, end := context.WithCancel(ctx)
	context.AfterFunc(b.ctx, end)
	title := serverTitle(ctx, b.c, id)
	var links convui.Links
	if b.rel != nil {
		links = serverLinks{c: b.c, id: id, rel: b.rel}
	}
	return convui.Options{
		Title:        title,
		Source:       "ws " + b.c.BaseURL(),
		Log:          reducer.NewLog(nil, 0),
		Feed:         b.c.Watch(ctx, id, agentserver.WatchOptions{FirstAttempts: 3}),
		Live:         true,
		Server:       b.c.BaseURL(),
		Conversation: id,
		Controls:     confirmer{c: b.c, id: id},
		Branching:    brancher{ctx: ctx, c: b.c, id: id, fleet: b.fleet, rel: b.rel},
		Links:        links,
	}, true
}

// treeErr makes the client's "server too old" error one the TUI knows
// (convui.ErrTreeUnsupported), keeping its words.
func treeErr(err error) error {
	if errors.Is(err, agentserver.ErrTreeUnsupported) {
		return unsupported{err}
	}
	return err
}

// unsupported is an agentserver.TreeUnsupportedError as the TUI sees it,
// worded to fit the footer of an 80-column terminal whole.
type unsupported struct{ error }

func (u unsupported) Error() string {
	if errors.Is(u.error, agentserver.ErrRuntimeUnsupported) {
		return u.error.Error() // its runtime, not its age
	}
	return "agent-server older than " + agentserver.TreeVersion + " (no fork/navigate)"
}
func (u unsupported) Is(target error) bool { return target == convui.ErrTreeUnsupported }
func (u unsupported) Unwrap() error        { return u.error }
