package agentserver

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// persistChain appends n events to the log, each naming the one before it
// as its parent (the first names parent), without telling subscribers:
// events written while the client is away.
func (f *fakeServer) persistChain(parent string, n int) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []string
	for range n {
		extra := `"llm_message":{"role":"assistant","content":[{"type":"text","text":"hi"}]}`
		if parent != "" {
			extra = `"parent_id":"` + parent + `",` + extra
		}
		raw := f.eventLocked("MessageEvent", extra)
		f.persistLocked(raw)
		parent = idOf(raw)
		ids = append(ids, parent)
	}
	return ids
}

// TestWatchHoldsAnEventUntilItsParentArrives: on a reconnect the server
// sends its newest frames before replaying what came earlier, so events
// arrive before their parents. Each is held back until its parent is
// delivered: every event reaches the consumer after its parent, in the
// log's order, and no branch is made where there was none.
func TestWatchHoldsAnEventUntilItsParentArrives(t *testing.T) {
	f := newFakeServer(t, "")
	f.replayTwice = true // live tail first, then the whole log again
	want := f.persistChain("", 3)
	c := f.watchLive(t, fastWatch())
	c.waitFor(t, "the history", func(c *collector) bool { return c.count() >= 3 })
	// Written while the client is away: the reconnect sends the newest
	// three (whose parents it has not seen) before the rest.
	want = append(want, f.persistChain(want[2], 5)...)
	f.dropAll()
	c.waitFor(t, "the events written while away", func(c *collector) bool { return c.count() >= len(want) })
	c.stop()
	got := c.ids()
	checkExactly(t, got, want)
	c.mu.Lock()
	defer c.mu.Unlock()
	delivered := map[string]bool{}
	for _, ev := range c.events {
		if ev.ParentID != "" && !delivered[ev.ParentID] {
			t.Errorf("event %s arrived before its parent %s", ev.ID, ev.ParentID)
		}
		delivered[ev.ID] = true
	}
	if len(c.warnings) != 0 {
		t.Errorf("warnings %q", c.warnings)
	}
}

// TestWatchDeliversAnOrphanWithAWarning: an event whose parent never
// arrives is delivered once OrphanWait is over, with a warning naming it
// and the parent it waited for; the events after it are not held up by it
// longer than that.
func TestWatchDeliversAnOrphanWithAWarning(t *testing.T) {
	f := newFakeServer(t, "")
	first := f.persistChain("", 1)
	opts := fastWatch()
	opts.OrphanWait = 30 * time.Millisecond
	c := f.watchLive(t, opts)
	c.waitFor(t, "the history", func(c *collector) bool { return c.count() >= 1 })
	missing := "ffffffff-0000-4000-8000-000000000001"
	f.mu.Lock()
	raw := f.eventLocked("ActionEvent", `"parent_id":"`+missing+`","tool_name":"terminal","tool_call_id":"t1","action":{"kind":"TerminalAction","command":"ls"}`)
	f.persistLocked(raw)
	for _, ch := range f.subs {
		ch <- raw
	}
	f.mu.Unlock()
	orphan := idOf(raw)
	c.waitFor(t, "the orphan", func(c *collector) bool { return c.count() >= 2 })
	c.stop()
	checkExactly(t, c.ids(), append(first, orphan))
	if len(c.warnings) != 1 || !strings.Contains(c.warnings[0], shortID(orphan)) || !strings.Contains(c.warnings[0], "ffffffff") ||
		!strings.Contains(c.warnings[0], "never arrived") {
		t.Fatalf("warnings %q", c.warnings)
	}
}

// TestOrphanageReleasesInArrivalOrder: the held events are handed back by
// parent in the order they came, and stale ones oldest first.
func TestOrphanageReleasesInArrivalOrder(t *testing.T) {
	var o orphanage
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	ev := func(id, parent string) model.Event {
		return model.Event{ID: id, ParentID: parent, Kind: "MessageEvent"}
	}
	o.hold(ev("c", "b"), at.Add(3*time.Second), true)
	o.hold(ev("x", "w"), at.Add(1*time.Second), true)
	o.hold(ev("c2", "b"), at.Add(4*time.Second), false)
	o.hold(ev("y", "v"), at.Add(2*time.Second), true)
	if !o.has("c") || o.has("b") || o.n != 4 {
		t.Fatalf("held %+v", o)
	}
	if hs := o.children("b"); len(hs) != 2 || hs[0].ev.ID != "c" || hs[1].ev.ID != "c2" || hs[1].anchored {
		t.Fatalf("children of b: %+v", hs)
	}
	if t0, ok := o.oldest(); !ok || !t0.Equal(at.Add(time.Second)) {
		t.Fatalf("oldest %v %v", t0, ok)
	}
	if hs := o.stale(at.Add(1500 * time.Millisecond)); len(hs) != 1 || hs[0].ev.ID != "x" {
		t.Fatalf("stale: %+v", hs)
	}
	if hs := o.stale(time.Time{}); len(hs) != 1 || hs[0].ev.ID != "y" || o.n != 0 || o.has("y") {
		t.Fatalf("all stale: %+v, left %d", hs, o.n)
	}
	if _, ok := o.oldest(); ok {
		t.Fatal("an empty orphanage has an oldest")
	}
}

// BenchmarkHeldBehindAMissingParent holds a run of events behind a parent
// that comes last (as behind a frame the socket lost, until the reconcile
// brings it), then delivers it: the cost per event must not grow with how
// many wait, as it did when each hold looked over every held event.
func BenchmarkHeldBehindAMissingParent(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			evs := make([]model.Event, n+1)
			evs[0] = model.Event{ID: "p0", Kind: "MessageEvent"}
			for i := 1; i <= n; i++ {
				evs[i] = model.Event{ID: "p" + strconv.Itoa(i), ParentID: "p" + strconv.Itoa(i-1), Kind: "MessageEvent"}
			}
			b.ReportAllocs()
			for b.Loop() {
				w := &watcher{opts: WatchOptions{}.withDefaults(), q: newQueue(0), seen: map[string]struct{}{"root": {}}}
				w.deliver(evs[1:]...)
				w.deliver(evs[0])
				if w.delivered != n+1 || w.orphans.n != 0 {
					b.Fatalf("delivered %d, %d still held", w.delivered, w.orphans.n)
				}
				if w.orphanDue != nil {
					w.orphanDue.Stop()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(n+1)), "ns/event")
		})
	}
}
