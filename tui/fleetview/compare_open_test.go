package fleetview

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/compareview"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// parentLinks is a source's listing that names the view's parent and
// opens it as a recording read through a feed.
type parentLinks struct {
	parent conversation.Link
	events []model.Event
	opened []string
}

func (p *parentLinks) Children() []conversation.Link     { return nil }
func (p *parentLinks) Refresh(context.Context)           {}
func (p *parentLinks) Parent() (conversation.Link, bool) { return p.parent, p.parent.ID != "" }
func (p *parentLinks) Open(_ context.Context, id string) (conversation.Options, error) {
	p.opened = append(p.opened, id)
	feed := make(chan model.Batch, 1)
	feed <- model.Batch{Events: p.events}
	close(feed)
	return conversation.Options{Title: "parent", Source: "replay parent", Log: reducer.NewLog(nil, 0), Feed: feed}, nil
}

// messageOf runs the commands cmd holds, each in its own goroutine (a
// flash's timer among them), and returns the first message of type T.
func messageOf[T tea.Msg](t *testing.T, cmd tea.Cmd) T {
	t.Helper()
	found := make(chan T, 1)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			msg := c()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, sub := range b {
					run(sub)
				}
				return
			}
			if m, ok := msg.(T); ok {
				select {
				case found <- m:
				default:
				}
			}
		}()
	}
	run(cmd)
	select {
	case m := <-found:
		return m
	case <-time.After(30 * time.Second): // a failure bound, not a timing
		var zero T
		t.Fatalf("no %T came", zero)
		return zero
	}
}

// In a fork's view, D opens the parent and pushes the comparison of the
// parent (along the fork's branch) with the fork, which opens at the fork
// point.
func TestForkViewComparesWithItsParent(t *testing.T) {
	dirs := tuitest.ForkPair(t)
	parentLog, forkLog := tuitest.ForkPairLog(t, dirs[0]), tuitest.ForkPairLog(t, dirs[1])
	var parentEvents []model.Event
	for i := range parentLog.Len() {
		parentEvents = append(parentEvents, parentLog.Event(i))
	}
	point := tuitest.ForkPoint(t, dirs[1])
	links := &parentLinks{parent: conversation.Link{ID: "4c063d87cbb24290a3bf2ddabcbcf0a2", Event: point}, events: parentEvents}
	m := newModel(conversation.Options{Title: "fork", Log: forkLog, Links: links}, 120, 40)
	cmd := m.Update(tuitest.KeyMsg("D"))
	opened := messageOf[conversation.ParentOpenedMsg](t, cmd)
	if len(links.opened) != 1 || links.opened[0] != links.parent.ID {
		t.Fatalf("opened %v", links.opened)
	}
	push := messageOf[tui.PushMsg](t, m.Update(opened))
	c, ok := push.Screen.(*compareview.Compare)
	if !ok {
		t.Fatalf("pushed %T", push.Screen)
	}
	c.SetSize(120, 40)
	finishAlignment(c, c.Update(c.WaitFeed(0)()))
	if c.Cmp.SharedUntilID != point || c.Cursor != c.Cmp.FirstDiff {
		t.Fatalf("shared until %q (fork point %q), cursor %d, first difference %d", c.Cmp.SharedUntilID, point, c.Cursor, c.Cmp.FirstDiff)
	}
	if c.RunB.Log != forkLog {
		t.Error("B is not the fork's own log")
	}
}

// D in a conversation that is no fork says so.
func TestCompareParentOfNoFork(t *testing.T) {
	m := newModel(conversation.Options{Title: "t", Log: tuitest.ErrorLog(t), Links: &parentLinks{}}, 100, 30)
	m.Update(tuitest.KeyMsg("D"))
	if m.Flash == "" {
		t.Fatal("C in a conversation that is no fork said nothing")
	}
}

// In the fleet, m marks two conversations and c compares them.
func TestFleetComparesTwoMarked(t *testing.T) {
	dirs := tuitest.ForkPair(t)
	logs := map[string]*reducer.Log{}
	var opened []string
	open := func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
		opened = append(opened, ref.ID)
		log := logs[ref.ID]
		if log == nil {
			log = tuitest.ForkPairLog(t, dirs[len(opened)%2])
			logs[ref.ID] = log
		}
		return conversation.Options{Title: "conversation " + ref.ID, Log: log}, nil
	}
	f := fleetFixtureScreen(t, 160, 40, FleetOptions{Open: open})
	pressFleet(f, "m", "j", "m")
	if len(f.Marked) != 2 || f.Marked[0] == f.Marked[1] {
		t.Fatalf("marked %v", f.Marked)
	}
	if out := f.View(); !containsAll(out, "A▸ ", "B▸ ") {
		t.Errorf("the marked rows are not marked:\n%s", out)
	}
	msg := messageOf[FleetCompareMsg](t, pressFleet(f, "D"))
	if len(opened) != 2 || opened[0] != f.Marked[0].ID || opened[1] != f.Marked[1].ID {
		t.Fatalf("opened %v for marks %v", opened, f.Marked)
	}
	push := messageOf[tui.PushMsg](t, f.Update(msg))
	if _, ok := push.Screen.(*compareview.Compare); !ok {
		t.Fatalf("pushed %T", push.Screen)
	}
	// m on a marked row unmarks it.
	pressFleet(f, "m")
	if len(f.Marked) != 1 {
		t.Errorf("m on a marked row left %v", f.Marked)
	}
}

// containsAll reports whether s holds every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// finishAlignment runs what c asked for, except its waits on its feeds
// (the test feeds them by hand) and ticks, handing c each result and
// running what it asks for next: the alignment its last batch started,
// and any asked for meanwhile.
func finishAlignment(c *compareview.Compare, cmd tea.Cmd) {
	if cmd == nil || tuitest.IsTick(cmd) || strings.Contains(tuitest.FuncOf(cmd), "waitFeed") {
		return
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, sub := range b {
			finishAlignment(c, sub)
		}
		return
	}
	if msg != nil {
		finishAlignment(c, c.Update(msg))
	}
}
