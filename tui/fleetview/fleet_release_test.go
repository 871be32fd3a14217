package fleetview

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"weak"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// openFromTable presses enter on the table's cursor row (the router on top
// of it) and runs the open through to the conversation on top, its first
// batch ingested; it returns the view.
func openFromTable(t testing.TB, r *tui.Model, f *Fleet) *fleetConversation {
	t.Helper()
	_, open := r.Update(tuitest.KeyMsg("enter"))
	if open == nil {
		t.Fatal("enter started no open")
	}
	_, push := r.Update(open())
	_, initCmd := r.Update(push())
	c, ok := r.Top().(*fleetConversation)
	if !ok {
		t.Fatalf("on top after enter: %T", r.Top())
	}
	r.Update(tuitest.FirstAddressed(t, initCmd, c.ScreenID()))
	return c
}

// rowLine is the table's line of the row titled title, as drawn.
func rowLine(t *testing.T, f *Fleet, title string) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(f.View()), "\n") {
		if strings.Contains(l, title) {
			return l
		}
	}
	t.Fatalf("no row %q:\n%s", title, f.View())
	return ""
}

// TestFleetReleasesAConversationLeft: a conversation opened from the
// table and left with esc is released — its session's context ends (and
// with it the feed), the router forgets it, and its view and log are
// garbage — while the row keeps what the table derived; opening it again
// loads every event again.
func TestFleetReleasesAConversationLeft(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 300, 4)
	var ctxs []context.Context
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Open: func(ctx context.Context, ref model.ConversationRef) (conversation.Options, error) {
		ctxs = append(ctxs, ctx)
		feed := make(chan model.Batch, 1)
		feed <- model.Batch{Events: evs}
		close(feed)
		return conversation.Options{Title: "opened " + ref.ID, Log: reducer.NewLog(nil, 0), Feed: feed, NoColor: true}, nil
	}})
	ref := fleetRef(fleetServer, "3c1d2e4f") // the first row
	rowBefore := rowLine(t, f, "Delete the build cache")
	r := tui.NewModel(f)
	r.Update(tuitest.WindowSize(160, 48))

	c := openFromTable(t, r, f)
	if c.Log.Len() != len(evs) || len(r.Alive) != 2 {
		t.Fatalf("opened with %d events, %d screens alive", c.Log.Len(), len(r.Alive))
	}
	view, log := weak.Make(c.Conversation), weak.Make(c.Log)
	id := c.ScreenID()
	// The inspector is an overlay of the view: esc closes it first.
	r.Update(tuitest.KeyMsg("enter"))
	if _, back := r.Update(tuitest.KeyMsg("esc")); back != nil {
		if _, isPop := back().(tui.PopMsg); isPop {
			t.Fatal("esc with the inspector open left the conversation")
		}
	}
	if r.Top() != tui.Screen(c) {
		t.Fatal("esc with the inspector open left the conversation")
	}
	_, back := r.Update(tuitest.KeyMsg("esc"))
	r.Update(back())
	if r.Top() != tui.Screen(f) {
		t.Fatalf("esc did not go back to the table: %T", r.Top())
	}
	if ctxs[0].Err() == nil {
		t.Error("the session of the conversation left is still running")
	}
	if _, kept := r.Alive[id]; kept || len(r.Alive) != 1 || len(r.Stack) != 1 {
		t.Errorf("the router keeps the view left: alive %d, stack %d", len(r.Alive), len(r.Stack))
	}
	if c.Conversation != nil {
		t.Error("the view left keeps its conversation")
	}
	// A message still on its way to the view is dropped.
	if _, cmd := r.Update(conversation.BatchMsg{Addr: tui.Addr{To: id}, Batch: model.Batch{Events: evs[:1]}}); cmd != nil {
		t.Error("a batch for the released view was answered")
	}
	c = nil
	runtime.GC()
	if view.Value() != nil || log.Value() != nil {
		t.Error("the view or the log of the conversation left is still reachable")
	}
	if rowAfter := rowLine(t, f, "Delete the build cache"); rowAfter != rowBefore {
		t.Errorf("the row changed with the view:\n%s\nwas\n%s", rowAfter, rowBefore)
	}

	// Open again: every event is loaded again, on a new context.
	again := openFromTable(t, r, f)
	if len(ctxs) != 2 || ctxs[1].Err() != nil || again.Log.Len() != len(evs) {
		t.Fatalf("reopened: %d opens, %d events", len(ctxs), again.Log.Len())
	}
	if !strings.Contains(r.View().Content, "opened "+ref.ID) {
		t.Fatalf("the reopened view is not shown:\n%s", r.View().Content)
	}
	// q goes back too, and releases it.
	_, back = r.Update(tuitest.KeyMsg("q"))
	r.Update(back())
	if ctxs[1].Err() == nil || len(r.Alive) != 1 {
		t.Error("q did not release the conversation")
	}
}

// TestFleetForkReleasesTheParent: b in a conversation of the fleet goes
// back to the table, where the fork is listed under its parent; the
// parent's view is released like any other left.
func TestFleetForkReleasesTheParent(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		var ctx context.Context
		f := fleetFixtureScreen(t, 160, 48, FleetOptions{Open: func(c context.Context, ref model.ConversationRef) (conversation.Options, error) {
			ctx = c
			return conversation.Options{Title: "parent", Log: tuitest.Recorded(t, fixtures.Confirm), Live: true, NoColor: true,
				Branching: &fleetBranching{}}, nil
		}})
		r := tui.NewModel(f)
		r.Update(tuitest.WindowSize(160, 48))
		_, open := r.Update(tuitest.KeyMsg("enter"))
		_, push := r.Update(open())
		r.Update(push())
		c := r.Top().(*fleetConversation)
		done := conversation.ForkDoneMsg{Addr: c.Addr(), Plan: conversation.ForkPlan{Index: 2}, ID: "fork-1"}
		_, cmd := r.Update(done)
		for _, m := range cmd().(tea.BatchMsg) {
			if m == nil {
				continue
			}
			if msg, ok := m().(tui.PopMsg); ok {
				r.Update(msg)
			}
		}
		if r.Top() != tui.Screen(f) || ctx.Err() == nil || len(r.Alive) != 1 {
			t.Fatalf("after the fork: top %T, session ended %v, %d alive", r.Top(), ctx.Err() != nil, len(r.Alive))
		}
	})
}

// BenchmarkFleetOpenAndLeave opens a conversation of 10k events from the
// table and goes back, again and again, and reports what the program holds
// after the last one beside what it held before the first, after a GC:
// the resident memory (retained-rss-MB, Linux), which counts a big log's
// off-heap blocks, and the heap (retained-MB), which cannot. A conversation
// left is released, so neither grows with the conversations a person has
// looked at (before, every one opened stayed whole); the off-heap blocks
// of the last one left stay resident in the pool the next open takes
// them from.
func BenchmarkFleetOpenAndLeave(b *testing.B) {
	evs := tuitest.GeneratedEvents(b, 10_000, 7)
	f := fleetFixtureScreen(b, 160, 48, FleetOptions{Open: func(ctx context.Context, ref model.ConversationRef) (conversation.Options, error) {
		feed := make(chan model.Batch, 1)
		// A copy per open, as a source decodes the events afresh.
		feed <- model.Batch{Events: append([]model.Event(nil), evs...)}
		close(feed)
		return conversation.Options{Title: ref.ID, Log: reducer.NewLog(nil, 0), Feed: feed, NoColor: true}, nil
	}})
	r := tui.NewModel(f)
	r.Update(tuitest.WindowSize(160, 48))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before, rssBefore := ms.HeapAlloc, tuitest.ResidentBytes()
	b.ResetTimer()
	for range b.N {
		openFromTable(b, r, f)
		_ = r.View() // drawn once, as the program would
		_, back := r.Update(tuitest.KeyMsg("esc"))
		r.Update(back())
	}
	b.StopTimer()
	runtime.GC() // collects the logs left; their arenas' cleanups run after it
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(int64(ms.HeapAlloc)-int64(before))/1e6, "retained-MB")
	if rss := tuitest.ResidentBytes(); rss > 0 {
		b.ReportMetric(float64(rss-rssBefore)/1e6, "retained-rss-MB")
	}
	b.ReportMetric(float64(len(r.Alive)), "screens")
}
