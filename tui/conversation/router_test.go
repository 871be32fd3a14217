package conversation

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// liveView is a live conversation view on its own feed.
func liveView(title string) (*Conversation, chan model.Batch) {
	feed := make(chan model.Batch, 1)
	c := NewConversation(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: feed, Title: title, NoColor: true})
	return c, feed
}

// route hands msg to the router and returns what its command sends, one
// message (nil when there is no command); only for commands that answer
// at once (not a feed's wait).
func route(t *testing.T, r *tui.Model, msg tea.Msg) tea.Msg {
	t.Helper()
	_, cmd := r.Update(msg)
	if cmd == nil {
		return nil
	}
	return cmd()
}

// TestRouterKeepsHiddenConversationsFed: a conversation under another
// screen, or popped from the stack, still gets its feed's batches and
// every message addressed to it; the screen on top is not touched.
func TestRouterKeepsHiddenConversationsFed(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 40, 3)
	a, feedA := liveView("first")
	b, feedB := liveView("second")
	r := tui.NewModel(a)
	waitA := r.Init() // a's feed and its colour query
	route(t, r, tuitest.WindowSize(120, 40))
	if _, initB := r.Update(tui.Push(b)()); initB == nil {
		t.Fatal("pushing a new screen does not initialise it")
	}
	if r.Top() != b {
		t.Fatal("the pushed screen is not on top")
	}
	tuitest.AssertScreenShape(t, b.View(), 120, 40) // drawn at the window's size

	// a's feed delivers while b is on top: the batch is addressed to a.
	feedA <- model.Batch{Events: evs[:10], Conn: &model.ConnState{Phase: model.PhaseLive}}
	msg := tuitest.FirstAddressed(t, waitA, a.ScreenID())
	r.Update(msg)
	if a.Log.Len() != 10 || b.Log.Len() != 0 {
		t.Fatalf("a batch for the hidden view: a has %d events, b %d", a.Log.Len(), b.Log.Len())
	}
	if !strings.Contains(r.View().Content, "second") {
		t.Fatal("the screen on top is not the one drawn")
	}

	// q on b goes back to a; b stays alive and keeps ingesting.
	if back := route(t, r, tuitest.KeyMsg("q")); back == nil {
		t.Fatal("q returns no command")
	} else {
		route(t, r, back)
	}
	if r.Top() != a || !strings.Contains(r.View().Content, "first") {
		t.Fatal("q does not go back to the conversation below")
	}
	feedB <- model.Batch{Events: evs[:5]}
	r.Update(BatchMsg{Addr: b.Addr(), Batch: <-feedB})
	if b.Log.Len() != 5 || a.Log.Len() != 10 {
		t.Fatalf("a batch for the popped view: a has %d events, b %d", a.Log.Len(), b.Log.Len())
	}
	// The size reaches every screen, on the stack or not.
	route(t, r, tuitest.WindowSize(90, 30))
	tuitest.AssertScreenShape(t, a.View(), 90, 30)
	tuitest.AssertScreenShape(t, b.View(), 90, 30)
	// Pushed again, b shows as it was, without a second feed reader.
	if _, cmd := r.Update(tui.Push(b)()); cmd != nil {
		t.Fatal("pushing a living view again initialises it")
	}
	if r.Top() != b || b.Log.Len() != 5 {
		t.Fatal("b is not shown as it was")
	}
}

// TestRouterBackAndQuitAtTheRoot: esc (Back) at the root stays, q (Pop)
// at the root quits, and a message for a screen the router never saw is
// dropped rather than given to the top screen.
func TestRouterBackAndQuitAtTheRoot(t *testing.T) {
	t.Parallel()
	a, _ := liveView("only")
	r := tui.NewModel(a)
	if msg := route(t, r, tui.Back()()); msg != nil {
		t.Fatalf("Back at the root: %T", msg)
	}
	if r.Top() != a {
		t.Fatal("Back at the root removed it")
	}
	if _, cmd := r.Update(flashExpiredMsg{Addr: tui.Addr{To: tui.NewScreenID()}}); cmd != nil {
		t.Fatal("a message for an unknown screen was answered")
	}
	if msg := route(t, r, tui.Pop()()); msg != tea.Quit() {
		t.Fatalf("Pop at the root: %T, want a quit", msg)
	}
}

// TestEscGoesBackOneScreen: over another screen, esc closes what the
// conversation has open first (the inspector), then goes back to the
// screen below; at the root the same esc does nothing.
func TestEscGoesBackOneScreen(t *testing.T) {
	t.Parallel()
	below, _ := liveView("below")
	top := newModel(Options{Log: tuitest.ErrorLog(t), Title: "top"}, 100, 30)
	r := tui.NewModel(below)
	r.Update(tui.Push(top)())
	list := top.View()
	top.Update(tuitest.KeyMsg("enter"))
	if !strings.Contains(top.View(), "▌ Inspect") {
		t.Fatal("enter does not open the inspector")
	}
	if msg := route(t, r, tuitest.KeyMsg("esc")); msg != nil || top.View() != list || r.Top() != top {
		t.Fatalf("esc over the inspector: %T, screen\n%s", msg, top.View())
	}
	route(t, r, route(t, r, tuitest.KeyMsg("esc")))
	if r.Top() != below {
		t.Fatal("esc with nothing open does not go back")
	}
	if msg := route(t, r, route(t, r, tuitest.KeyMsg("esc"))); msg != nil || r.Top() != below {
		t.Fatal("esc at the root does something")
	}
}
