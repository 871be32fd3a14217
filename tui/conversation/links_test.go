package conversation

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// fakeLinks knows some children of a conversation and opens any id as a
// live view, noting what it opened and whether the view's context ended.
type fakeLinks struct {
	children []Link
	opened   []string
	ctxs     []context.Context
	// recorded, when set, is what every conversation opens as: a
	// recording that loads through a feed.
	recorded []model.Event
	// refreshes and listed count the Refresh and Children calls (made
	// from commands).
	refreshes, listed atomic.Int32
}

func (f *fakeLinks) Children() []Link { f.listed.Add(1); return f.children }

func (f *fakeLinks) Refresh(context.Context) { f.refreshes.Add(1) }

func (f *fakeLinks) Open(ctx context.Context, id string) (Options, error) {
	f.opened = append(f.opened, id)
	f.ctxs = append(f.ctxs, ctx)
	if f.recorded != nil {
		feed := make(chan model.Batch, 1)
		feed <- model.Batch{Events: f.recorded}
		close(feed)
		return Options{Title: "fork " + id[:8], Log: reducer.NewLog(nil, 0), Feed: feed}, nil
	}
	return Options{Title: "child " + id[:8], Log: reducer.NewLog(nil, 0), Feed: make(chan model.Batch), Live: true}, nil
}

// linksListed hands the view its links as a refresh lists them: the
// command the view runs when it opens, run here at once.
func linksListed(t *testing.T, m *Conversation) *Conversation {
	t.Helper()
	m.Update(m.refreshLinks(false)())
	return m
}

// childID is the sub-conversation the launch observation below names.
const childID = "5a0b2c3d111142228333944455556666"

// pushedView is the conversation view msgs push, nil for none.
func pushedView(msgs []any) *linkedConversation {
	for _, msg := range msgs {
		if p, ok := msg.(tui.PushMsg); ok {
			if v, ok := p.Screen.(*linkedConversation); ok {
				return v
			}
		}
	}
	return nil
}

func TestInspectorShowsAndOOpensTheLaunchedConversation(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		log := tuitest.Recorded(t, fixtures.Echo)
		raw := `{"id":"7d1c8f0e-4b1a-4c55-9d0e-3f2a1b6c7d8e","timestamp":"2026-03-14T09:30:00.000000","source":"environment","tool_name":"launch_child_conversation","tool_call_id":"toolu_1","observation":{"content":[],"is_error":false,"conversation_id":"5a0b2c3d-1111-4222-8333-944455556666","execution_status":"running","workspace":"/workspace/project","url_path":"/conversations/5a0b2c3d111142228333944455556666","kind":"LaunchChildConversationObservation"},"action_id":"a1","kind":"ObservationEvent"}`
		log.Append(tuitest.Decode(t, []byte(raw)))
		at := log.Len() - 1
		links := &fakeLinks{children: []Link{{ID: childID, Title: "write the migration"}}}
		m := linksListed(t, newModel(Options{Log: log, Links: links}, 120, 30))
		m = jumpTo(t, m, tui.Ordinal(at))
		m, _ = press(t, m, "enter")
		s := screen(m)
		if !strings.Contains(s, "launched: sub-conversation 5a0b2c3d write the migration") || !strings.Contains(s, "O opens it") {
			t.Fatalf("the inspector does not show the link:\n%s", s)
		}
		m, cmd := press(t, m, "O")
		var msgs []any
		for _, msg := range answer(t, m, cmd) {
			msgs = append(msgs, msg)
		}
		view := pushedView(msgs)
		if view == nil || len(links.opened) != 1 || links.opened[0] != childID {
			t.Fatalf("O did not open the child: opened %v, messages %v", links.opened, msgs)
		}
		if !view.Opts.Live || view.Opts.Title != "child 5a0b2c3d" || view.Opts.KeyMap.OpenLink.Help().Key != "O" {
			t.Errorf("the child's view: %+v", view.Opts)
		}
		// On the router the child goes on top; esc releases it, which ends its
		// context (and with it its feed).
		r := tui.NewModel(m)
		r.Update(tuitest.WindowSize(120, 30))
		r.Update(tui.PushMsg{Screen: view})
		if r.Top() != tui.Screen(view) {
			t.Fatal("the child is not on top")
		}
		r.Update(tui.PopMsg{})
		if r.Top() != tui.Screen(m) || links.ctxs[0].Err() == nil {
			t.Error("going back did not come back to the parent and release the child")
		}
	})
}

func TestOOffersEveryForkOfTheEvent(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		log := tuitest.Recorded(t, fixtures.Echo)
		at := 3
		ev := log.Event(at)
		links := &fakeLinks{children: []Link{
			{ID: "aaaaaaaa111142228333944455556666", Title: "first try", Event: ev.ID},
			{ID: "bbbbbbbb111142228333944455556666", Title: "second try", Event: ev.ID},
			{ID: "cccccccc111142228333944455556666", Title: "delegated"},
		}}
		m := linksListed(t, newModel(Options{Log: log, Links: links}, 120, 30))
		m = jumpTo(t, m, tui.Ordinal(at))
		m, _ = press(t, m, "O")
		s := screen(m)
		if !strings.Contains(s, "1 fork aaaaaaaa first try") || !strings.Contains(s, "2 fork bbbbbbbb second try") || strings.Contains(s, "cccccccc") {
			t.Fatalf("O does not offer the two forks of the event:\n%s", s)
		}
		m, cmd := press(t, m, "2")
		var msgs []any
		for _, msg := range answer(t, m, cmd) {
			msgs = append(msgs, msg)
		}
		if pushedView(msgs) == nil || len(links.opened) != 1 || links.opened[0] != "bbbbbbbb111142228333944455556666" {
			t.Fatalf("2 opened %v", links.opened)
		}
		// Where nothing came from the event, O says so.
		m = jumpTo(t, m, tui.Ordinal(at+1))
		m, _ = press(t, m, "O")
		if !strings.Contains(m.Flash, "no conversation was forked or launched from "+tui.Ordinal(at+1)) {
			t.Errorf("flash %q", m.Flash)
		}
		// A source that opens nothing still shows the link, and says why O
		// cannot follow it.
		m = newModel(Options{Log: log}, 120, 30)
		log.Append(tuitest.Decode(t, []byte(`{"id":"7d1c8f0e-4b1a-4c55-9d0e-3f2a1b6c7d8e","timestamp":"2026-03-14T09:30:00.000000","source":"environment","tool_name":"launch_child_conversation","tool_call_id":"toolu_1","observation":{"content":[],"conversation_id":"5a0b2c3d-1111-4222-8333-944455556666","kind":"LaunchChildConversationObservation"},"action_id":"a1","kind":"ObservationEvent"}`)))
		m = jumpTo(t, m, tui.Ordinal(log.Len()-1))
		m, _ = press(t, m, "O")
		if !strings.Contains(m.Flash, "this source opens no other conversation") {
			t.Errorf("flash %q", m.Flash)
		}
	})
}

// TestTheListMarksEventsOthersCameFrom: the event a fork was made at and
// the observation that launched a sub-conversation carry the link mark in
// the list, with its legend naming the key that opens them; other events
// do not.
func TestTheListMarksEventsOthersCameFrom(t *testing.T) {
	t.Parallel()
	log := tuitest.Recorded(t, fixtures.Echo)
	forkAt := log.Event(3)
	log.Append(tuitest.Decode(t, []byte(`{"id":"7d1c8f0e-4b1a-4c55-9d0e-3f2a1b6c7d8e","timestamp":"2026-03-14T09:30:00.000000","source":"environment","tool_name":"launch_child_conversation","tool_call_id":"toolu_1","observation":{"content":[],"conversation_id":"5a0b2c3d-1111-4222-8333-944455556666","kind":"LaunchChildConversationObservation"},"action_id":"a1","kind":"ObservationEvent"}`)))
	links := &fakeLinks{children: []Link{{ID: "aaaaaaaa111142228333944455556666", Title: "first try", Event: forkAt.ID}}}
	m := linksListed(t, newModel(Options{Log: log, Links: links}, 120, 30))
	m = jumpTo(t, m, tui.Ordinal(0))
	lines := strings.Split(screen(m), "\n")
	marked := map[string]bool{}
	legend := false
	for _, l := range lines {
		plain := ansi.Strip(l)
		legend = legend || strings.Contains(plain, "↗ forked or launched here (O)")
		if f := strings.Fields(plain); len(f) > 1 && f[0] == "↗" {
			marked[f[1]] = true
		}
	}
	want := map[string]bool{tui.Ordinal(3): true, tui.Ordinal(log.Len() - 1): true}
	if !legend || len(marked) != len(want) || !marked[tui.Ordinal(3)] || !marked[tui.Ordinal(log.Len()-1)] {
		t.Fatalf("marked rows %v, want %v; legend %v:\n%s", marked, want, legend, strings.Join(lines, "\n"))
	}
}

// TestARecordedForkOpensAtTheForkPoint: O on the event a recorded fork was
// made at opens the fork there, once its events have loaded, not at its
// first event.
func TestARecordedForkOpensAtTheForkPoint(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		log := tuitest.Recorded(t, fixtures.Echo)
		at := 3
		evs := make([]model.Event, log.Len())
		for i := range evs {
			evs[i] = log.Event(i)
		}
		links := &fakeLinks{recorded: evs, children: []Link{{ID: "aaaaaaaa111142228333944455556666", Title: "first try", Event: evs[at].ID}}}
		m := linksListed(t, newModel(Options{Log: log, Links: links}, 120, 30))
		m = jumpTo(t, m, tui.Ordinal(at))
		m, cmd := press(t, m, "O")
		var msgs []any
		for _, msg := range answer(t, m, cmd) {
			msgs = append(msgs, msg)
		}
		view := pushedView(msgs)
		if view == nil {
			t.Fatalf("O opened nothing: %v", msgs)
		}
		view.Update(tuitest.WindowSize(120, 30))
		for cmd := view.Init(); cmd != nil; {
			msg := cmd()
			if _, ok := msg.(BatchMsg); !ok {
				break
			}
			cmd = view.Update(msg)
		}
		if s := view.View(); view.Log.Len() != len(evs) || cursorOn(s) != tui.Ordinal(at) {
			t.Fatalf("the fork opened at %s of %d events, want the fork point %s:\n%s", cursorOn(s), view.Log.Len(), tui.Ordinal(at), s)
		}
	})
}

// TestLinksAreReadInCommandsOnly: a view reads its links' listing in a
// command (when it opens, on its periodic tick, after a fork), never in
// Update or View, which read only what was last read.
func TestLinksAreReadInCommandsOnly(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		log := tuitest.Recorded(t, fixtures.Echo)
		links := &fakeLinks{children: []Link{{ID: "aaaaaaaa111142228333944455556666", Event: log.Event(3).ID}}}
		m := newModel(Options{Log: log, Links: links}, 120, 30)
		cmd := m.Init()
		m, _ = press(t, m, "j", "enter", "esc", "O", "esc")
		_ = m.View()
		if r, l := links.refreshes.Load(), links.listed.Load(); r != 0 || l != 0 {
			t.Fatalf("%d refreshes and %d listings in Update or View", r, l)
		}
		if len(m.linkedRows([]int{3})) != 0 {
			t.Fatal("links known before a refresh listed them")
		}
		// Init's batch holds the first refresh; its answer schedules the next.
		var refreshed tea.Cmd
		for _, msg := range tuitest.Results(t, cmd) {
			if r, ok := msg.(linksRefreshedMsg); ok && r.again {
				refreshed = m.Update(r)
			}
		}
		if links.refreshes.Load() != 1 || refreshed == nil {
			t.Fatalf("%d refreshes from Init, next scheduled %v", links.refreshes.Load(), refreshed != nil)
		}
		// The refresh's message carried the listing: the view knows the fork
		// without asking its Links again.
		listed := links.listed.Load()
		_ = m.View()
		if len(m.linkedRows([]int{3})) != 1 || links.listed.Load() != listed {
			t.Fatalf("the refreshed listing did not reach the view (listed %d times)", links.listed.Load())
		}
		// After a fork, one more, outside the periodic chain.
		m.Opts.Branching = &fakeBranching{}
		cmd = m.Update(ForkDoneMsg{Addr: m.Addr(), Plan: ForkPlan{Index: 3}, ID: "f0000000000040008000000000000001", opened: false})
		for _, msg := range answer(t, m, cmd) {
			if r, ok := msg.(linksRefreshedMsg); ok && r.again {
				t.Error("a fork's refresh started a second periodic chain")
			}
		}
		if links.refreshes.Load() != 2 {
			t.Errorf("%d refreshes after a fork, want 2", links.refreshes.Load())
		}
	})
}
