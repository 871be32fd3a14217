package conversation

import (
	"context"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// fakeBranching records what the view asks of the source's tree (Fork
// and Navigate are tuitest's); Fleet makes Open leave the fork to another
// screen.
type fakeBranching struct {
	tuitest.Branching
	Fleet bool
	mu    sync.Mutex
	// openCtxs are the contexts Open was given, one per view opened.
	openCtxs []context.Context
}

func (f *fakeBranching) Open(ctx context.Context, id string) (Options, bool) {
	f.mu.Lock()
	f.openCtxs = append(f.openCtxs, ctx)
	f.mu.Unlock()
	if f.Fleet {
		return Options{}, false
	}
	return Options{Title: "the fork " + id[:8], Log: reducer.NewLog(nil, 0), Live: true, Feed: make(chan model.Batch), Branching: f}, true
}

// unsupportedErr is what main hands the view for a server older than 1.31.
type unsupportedErr struct{ op string }

func (e unsupportedErr) Error() string {
	return "this agent-server does not support " + e.op + " (older than 1.31)"
}
func (e unsupportedErr) Is(target error) bool { return target == ErrTreeUnsupported }

// liveTree is a live view of a real recording with b and H available, the
// cursor on its first action.
func liveTree(t *testing.T, b Branching) (*Conversation, int) {
	t.Helper()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Echo), Live: true, Feed: make(chan model.Batch), Branching: b}, 120, 30)
	at := -1
	for i := 0; i < m.Log.Len() && at < 0; i++ {
		if m.Log.Event(i).Kind == "ActionEvent" {
			at = i
		}
	}
	m = jumpTo(t, m, tui.Ordinal(at))
	mustCursorOn(t, screen(m), tui.Ordinal(at))
	return m, at
}

// answer feeds the messages of cmd to the view and returns the messages
// its answers send (a push, a back).
func answer(t *testing.T, m *Conversation, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	for _, msg := range tuitest.Results(t, cmd) {
		out = append(out, tuitest.Results(t, m.Update(msg))...)
	}
	return out
}

func TestForkAsksThenForksAndOpens(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		fb := &fakeBranching{}
		m, at := liveTree(t, fb)
		id := m.Log.Event(at).ID
		m, _ = press(t, m, "b")
		if s := screen(m); !strings.Contains(s, "fork at "+tui.Ordinal(at)+", title: ") {
			t.Fatalf("the title prompt does not name the event:\n%s", s)
		}
		m = typeText(t, m, "retry with printf")
		m, _ = press(t, m, "enter")
		if s := screen(m); strings.Contains(s, "title: ") || !strings.Contains(s, "first message: ") {
			t.Fatalf("enter did not ask for the first message:\n%s", screen(m))
		}
		m = typeText(t, m, "use printf, not echo")
		m, _ = press(t, m, "enter")
		want := "Fork at " + tui.Ordinal(at) + " as “retry with printf”, send “use printf, not echo” and open it? [y/n]"
		if s := screen(m); !strings.Contains(s, want) {
			t.Fatalf("the question does not say what will happen (%q):\n%s", want, s)
		}
		if forks, _ := fb.Calls(); len(forks) != 0 {
			t.Fatal("forked before y")
		}
		m, cmd := press(t, m, "y")
		msgs := answer(t, m, cmd)
		if forks, _ := fb.Calls(); len(forks) != 1 || forks[0] != (tuitest.ForkCall{EventID: id, Title: "retry with printf", Message: "use printf, not echo"}) {
			t.Fatalf("forks %+v", forks)
		}
		var pushed *linkedConversation
		for _, msg := range msgs {
			if p, ok := msg.(tui.PushMsg); ok {
				pushed, _ = p.Screen.(*linkedConversation)
			}
		}
		if pushed == nil || len(fb.openCtxs) != 1 {
			t.Fatalf("the fork was not opened: %v", msgs)
		}
		if pushed.Opts.Title != "the fork f0000000" || !pushed.Opts.NoColor || pushed.Opts.Branching == nil {
			t.Errorf("the fork's view: %+v", pushed.Opts)
		}
		if !strings.Contains(m.Flash, "forked at "+tui.Ordinal(at)) {
			t.Errorf("flash %q", m.Flash)
		}
		// On the router the fork's view goes on top, the original under it.
		r := tui.NewModel(m)
		r.Update(tuitest.WindowSize(120, 30))
		r.Update(tui.PushMsg{Screen: pushed})
		if r.Top() != tui.Screen(pushed) || r.Root() != tui.Screen(m) {
			t.Error("the fork is not on top of the original")
		}
		if fb.openCtxs[0].Err() != nil {
			t.Fatal("the fork's view was ended while shown")
		}
		r.Update(tui.PopMsg{})
		if r.Top() != tui.Screen(m) {
			t.Error("esc does not come back to the original")
		}
		// Left, the fork's view is released: its context (and with it its
		// watch) ends.
		if fb.openCtxs[0].Err() == nil {
			t.Error("going back left the fork's view and its watch running")
		}
	})
}

func TestForkWithoutMessageRunsOnAndEscCancels(t *testing.T) {
	t.Parallel()
	fb := &fakeBranching{}
	m, at := liveTree(t, fb)
	m, _ = press(t, m, "b", "esc")
	if strings.Contains(screen(m), "title: ") {
		t.Fatalf("esc does not cancel the title:\n%s", screen(m))
	}
	m, _ = press(t, m, "b", "enter", "enter")
	if s := screen(m); !strings.Contains(s, "Fork at "+tui.Ordinal(at)+", run it on from there and open it? [y/n]") {
		t.Fatalf("without title and message:\n%s", s)
	}
	m, _ = press(t, m, "n")
	if forks, _ := fb.Calls(); len(forks) != 0 || m.Flash != "cancelled" {
		t.Fatalf("n: forks %v, flash %q", forks, m.Flash)
	}
}

func TestForkUnderFleetGoesBackToTheTable(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		fb := &fakeBranching{Fleet: true}
		m, _ := liveTree(t, fb)
		m, cmd := press(t, m, "b", "enter", "enter", "y")
		msgs := answer(t, m, cmd)
		back := false
		for _, msg := range msgs {
			if p, ok := msg.(tui.PopMsg); ok && !p.QuitAtRoot {
				back = true
			}
		}
		if !back || !strings.Contains(m.Flash, "the fleet lists it under this conversation") {
			t.Errorf("under fleet: messages %v, flash %q", msgs, m.Flash)
		}
	})
}

func TestNavigateAsksThenMovesHead(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		fb := &fakeBranching{}
		m, at := liveTree(t, fb)
		m, _ = press(t, m, "H")
		if s := screen(m); !strings.Contains(s, "Move this conversation's HEAD to "+tui.Ordinal(at)+"? The agent goes on from there. [y/n]") {
			t.Fatalf("H does not ask:\n%s", s)
		}
		m, cmd := press(t, m, "y")
		answer(t, m, cmd)
		if _, navs := fb.Calls(); len(navs) != 1 || navs[0] != m.Log.Event(at).ID {
			t.Fatalf("navigates %v", navs)
		}
		if m.Log.Leaf() != at || !strings.Contains(m.Flash, "HEAD moved to "+tui.Ordinal(at)) {
			t.Errorf("leaf %d, flash %q", m.Log.Leaf(), m.Flash)
		}
	})
}

func TestForkAndNavigateRefused(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		// A recording.
		rec := newModel(Options{Log: tuitest.Recorded(t, fixtures.Echo)}, 120, 30)
		rec, _ = press(t, rec, "b")
		if s := screen(rec); strings.Contains(s, "title: ") || !strings.Contains(s, "this is a recording") {
			t.Errorf("b on a recording:\n%s", s)
		}
		rec, _ = press(t, rec, "H")
		if s := screen(rec); strings.Contains(s, "[y/n]") || !strings.Contains(s, "cannot move HEAD: this is a recording") {
			t.Errorf("H on a recording:\n%s", s)
		}

		// A state update under the cursor.
		fb := &fakeBranching{}
		m, _ := liveTree(t, fb)
		m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000a1", "running"))
		m = jumpTo(t, m, tui.Ordinal(m.Log.Len()-1))
		m, _ = press(t, m, "b")
		if s := screen(m); strings.Contains(s, "title: ") || !strings.Contains(s, "a state update is not a step") {
			t.Errorf("b on a state update (%s):\n%s", cursorOn(s), s)
		}

		// An older server: said once, then at once.
		fb.ForkErr = unsupportedErr{"fork"}
		m, at := liveTree(t, fb)
		m, cmd := press(t, m, "b", "enter", "enter", "y")
		answer(t, m, cmd)
		if !strings.Contains(m.Flash, "this agent-server does not support fork (older than 1.31)") {
			t.Fatalf("flash %q", m.Flash)
		}
		forks, _ := fb.Calls()
		calls := len(forks)
		m = jumpTo(t, m, tui.Ordinal(at))
		m, _ = press(t, m, "H")
		forks, _ = fb.Calls()
		if s := screen(m); strings.Contains(s, "[y/n]") || !strings.Contains(s, "cannot move HEAD: this agent-server does not support fork (older than 1.31)") || len(forks) != calls {
			t.Errorf("after the server said it is too old, H:\n%s", s)
		}
		// Whether a key is offered shows only in its colour (the help
		// dims it): the key map is read.
		if k := m.activeKeys(m.state()); k.Fork.Enabled() || k.Navigate.Enabled() {
			t.Error("b and H still offered in the help")
		}
	})
}

func TestForkThatHalfWorkedStillOpens(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		fb := &fakeBranching{Branching: tuitest.Branching{ForkErr: tuitest.ErrHalfFork}}
		m, _ := liveTree(t, fb)
		m, _ = press(t, m, "b", "enter")
		m = typeText(t, m, "go")
		m, _ = press(t, m, "enter")
		m, cmd := press(t, m, "y")
		pushed := false
		for _, msg := range answer(t, m, cmd) {
			_, pushed = msg.(tui.PushMsg)
		}
		if !pushed || !strings.Contains(m.Flash, "(but: the first message was not sent)") {
			t.Errorf("pushed %v, flash %q", pushed, m.Flash)
		}
	})
}

func TestForkKeysInHelp(t *testing.T) {
	t.Parallel()
	m, _ := liveTree(t, &fakeBranching{})
	s := helpText(t, m)
	for _, want := range []string{"fork from this event", "move HEAD to this event"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q:\n%s", want, s)
		}
	}
}

// helpText is all of the help's pages as the screen shows them (the help
// scrolls: it is read down to its end), the help closed again after.
func helpText(t *testing.T, m *Conversation) string {
	t.Helper()
	m, _ = press(t, m, "?")
	s := screen(m)
	for range 60 {
		m, _ = press(t, m, "j")
		s += screen(m)
	}
	press(t, m, "esc")
	return s
}
