package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
	convui "ohwatch/tui/conversation"
)

// TestBrancherForksNavigatesAndOpens drives the TUI's Branching over a real
// serve: a fork from an event with a first message runs to its end, Open
// watches it live, navigate moves the original's HEAD; a server made older
// answers with convui.ErrTreeUnsupported in the client's words.
func TestBrancherForksNavigatesAndOpens(t *testing.T) {
	const id = "0c8a3d0e5f1b4a7e9d3c2b1a0f9e8d7c"
	ctx, srv, c, evs := serveEcho(t, id)
	b := brancher{ctx: ctx, c: c, id: id}
	var action model.Event
	for _, ev := range evs {
		if ev.Kind == "ActionEvent" && action.ID == "" {
			action = ev
		}
	}
	deadline := time.Now().Add(15 * time.Second)
	for n, _ := c.CountEvents(ctx, id); n < len(evs); n, _ = c.CountEvents(ctx, id) {
		if time.Now().After(deadline) {
			t.Fatal("the replay did not end")
		}
		time.Sleep(5 * time.Millisecond)
	}

	fork, err := b.Fork(ctx, action.ID, "again", "use printf")
	if err != nil {
		t.Fatal(err)
	}
	viewCtx, endView := context.WithCancel(ctx)
	defer endView()
	opts, ok := b.Open(viewCtx, fork)
	if !ok || opts.Feed == nil || opts.Log == nil || opts.Branching == nil || opts.Controls == nil || opts.Title != "again" {
		t.Fatalf("Open: %+v, %v", opts, ok)
	}
	var sawMessage, finished bool
	for !(sawMessage && finished) {
		select {
		case batch := <-opts.Feed:
			for _, ev := range batch.Events {
				if ev.Kind == "MessageEvent" && ev.Source == "user" && ev.ParentID == "" {
					sawMessage = sawMessage || ev.Summary != ""
				}
				if u, ok := ev.Body.(*model.StateUpdate); ok && u.ExecutionStatus == model.StatusFinished {
					finished = true
				}
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("the fork's live view: message %v, finished %v", sawMessage, finished)
		}
	}

	// The view left, its watch ends: the feed closes.
	endView()
	for closed := false; !closed; {
		select {
		case _, more := <-opts.Feed:
			closed = !more
		case <-time.After(15 * time.Second):
			t.Fatal("ending the view's context left its watch running")
		}
	}

	if err := b.Navigate(ctx, evs[1].ID); err != nil {
		t.Fatal(err)
	}
	if info, _ := c.Conversation(ctx, id); info.LeafEventID != evs[1].ID {
		t.Errorf("leaf %q after navigate", info.LeafEventID)
	}
	fromFleet, err := serverOpener(c)(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fromFleet.branching.Open(ctx, fork); ok {
		t.Error("opened from the fleet, Open should leave the fork to the table")
	}

	srv.SetFaults(serve.Faults{NoTree: true})
	_, forkErr := b.Fork(ctx, action.ID, "", "")
	navErr := b.Navigate(ctx, action.ID)
	for _, err := range []error{forkErr, navErr} {
		if !errors.Is(err, convui.ErrTreeUnsupported) || !errors.Is(err, agentserver.ErrTreeUnsupported) {
			t.Errorf("older server: %v", err)
		}
	}
	if forkErr.Error() != "agent-server older than 1.31 (no fork/navigate)" {
		t.Errorf("fork error reads %q", forkErr)
	}
}

// TestServerLinksKnowTheForks: the links of a conversation of an
// agent-server list the forks its search says were made from it, at their
// events, and open one live.
func TestServerLinksKnowTheForks(t *testing.T) {
	const id = "0c8a3d0e5f1b4a7e9d3c2b1a0f9e8d7c"
	ctx, _, c, evs := serveEcho(t, id)
	at := evs[2].ID
	fork, err := c.Fork(ctx, id, at, "again", true)
	if err != nil {
		t.Fatal(err)
	}
	l := newServerLinks(c, id)
	l.Refresh(ctx)
	children := l.Children()
	if len(children) != 1 || children[0].ID != model.NormalizeConversationID(fork) || children[0].Event != at || children[0].Title != "again" {
		t.Fatalf("children %+v, want the fork %s at %s", children, fork, at)
	}
	opts, err := l.Open(ctx, fork)
	if err != nil || !opts.Live || opts.Feed == nil || opts.Links == nil || opts.Conversation != model.NormalizeConversationID(fork) {
		t.Fatalf("Open: %+v, %v", opts, err)
	}
}

// TestAForkShowsUnderItsEventAtOnce: a fork made from a watch's view (b)
// makes the view's links stale, so the refresh the view runs after the
// fork reads the server's listing again and the new fork is among the
// event's children, not only at the links' next due refresh. The same
// holds in the fork's own view.
func TestAForkShowsUnderItsEventAtOnce(t *testing.T) {
	const id = "0c8a3d0e5f1b4a7e9d3c2b1a0f9e8d7c"
	ctx, _, c, evs := serveEcho(t, id)
	l := newServerLinks(c, id)
	l.rel.refreshEvery = time.Hour // only a fork makes it read again
	l.Refresh(ctx)
	if kids := l.Children(); len(kids) != 0 {
		t.Fatalf("children before any fork: %+v", kids)
	}
	b := brancher{ctx: ctx, c: c, id: id, rel: l.rel}
	fork, err := b.Fork(ctx, evs[2].ID, "again", "")
	if err != nil {
		t.Fatal(err)
	}
	l.Refresh(ctx) // what the view does after a fork
	kids := l.Children()
	if len(kids) != 1 || kids[0].ID != model.NormalizeConversationID(fork) || kids[0].Event != evs[2].ID {
		t.Fatalf("children after the fork: %+v, want %s at %s", kids, fork, evs[2].ID)
	}

	// The fork's view, opened as b opens it, has links of its own over
	// the same listing, and a fork made there shows under its event too.
	opts, ok := b.Open(ctx, fork)
	if !ok || opts.Links == nil || opts.Branching == nil {
		t.Fatalf("the fork's view: links %v, branching %v", opts.Links, opts.Branching)
	}
	again, err := opts.Branching.Fork(ctx, evs[1].ID, "once more", "")
	if err != nil {
		t.Fatal(err)
	}
	opts.Links.Refresh(ctx)
	kids = opts.Links.Children()
	if len(kids) != 1 || kids[0].ID != model.NormalizeConversationID(again) {
		t.Fatalf("the fork's children after a fork from it: %+v, want %s", kids, again)
	}
}

// serveEcho serves the echo trajectory as conversation id until the test
// ends, and returns a context that lasts as long, the server, a client of
// it and the events.
func serveEcho(t *testing.T, id string) (context.Context, *serve.Server, *agentserver.Client, []model.Event) {
	t.Helper()
	evs := testevents.Twin(t, "simple_echo_hello_world")
	srv := serve.New(serve.Options{})
	srv.Add(id, nil, evs)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	url, err := srv.Start(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	c, err := agentserver.New(url, "")
	if err != nil {
		t.Fatal(err)
	}
	// The replay plays on its own: a fork from one of its events needs
	// the server to hold that event, so wait until a watch has seen them
	// all.
	wctx, endWatch := context.WithCancel(ctx)
	defer endWatch()
	feed := c.Watch(wctx, id, agentserver.WatchOptions{FirstAttempts: 3})
	seen := map[string]bool{}
	for _, ev := range evs {
		for !seen[ev.ID] {
			select {
			case b, ok := <-feed:
				if !ok {
					t.Fatalf("the watch ended with %d of %d events", len(seen), len(evs))
				}
				for _, got := range b.Events {
					seen[got.ID] = true
				}
			case <-time.After(15 * time.Second): // a failure bound, not a pace
				t.Fatalf("the server played %d of %d events", len(seen), len(evs))
			}
		}
	}
	return ctx, srv, c, evs
}
