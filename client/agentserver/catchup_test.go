package agentserver

import (
	"testing"
)

// TestWatchDeliversTheLastEventsBeforeATerminalSnapshot: the conversation
// ends between the REST history and the socket, so the socket's first
// frame is a full_state saying finished, pushed before the replay of the
// events the history missed. Those events must arrive before that
// snapshot: a headless watch ends on it.
func TestWatchDeliversTheLastEventsBeforeATerminalSnapshot(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(20)
	f.beforeSubscribe = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.snapshotStatus != "" {
			return // a reconnect: nothing new happened
		}
		for range 3 {
			raw := f.eventLocked("MessageEvent", `"llm_message":{"role":"assistant","content":[{"type":"text","text":"done"}]}`)
			f.persistLocked(raw)
			want = append(want, idOf(raw))
		}
		f.snapshotStatus = "finished"
	}
	c := f.watchLive(t, fastWatch())
	c.waitFor(t, "the snapshot and every event", func(c *collector) bool {
		snap := false
		for _, ev := range c.events {
			snap = snap || isFullState(ev)
		}
		return snap && c.count() >= len(want)
	})
	c.stop()
	checkExactly(t, c.ids(), want)
	for i, ev := range c.events {
		if isFullState(ev) {
			if i != len(want) {
				t.Fatalf("the finished snapshot came as event %d, before %d of the conversation's %d events", i, len(want)-i, len(want))
			}
			break
		}
	}
}

// TestWatchCatchesUpBeforeATerminalSnapshotOnReconnect: the connection
// drops, the conversation ends while the client is away, and the new
// socket's first frame is a full_state saying finished, pushed before the
// replay of what was missed. As on a first connection, those events arrive
// before the snapshot, not after it by way of the reconcile.
func TestWatchCatchesUpBeforeATerminalSnapshotOnReconnect(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(20)
	subscribes := 0
	f.beforeSubscribe = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		subscribes++
		if subscribes != 2 {
			return // the first connection, or a later one: nothing new
		}
		for range 3 {
			raw := f.eventLocked("MessageEvent", `"llm_message":{"role":"assistant","content":[{"type":"text","text":"done"}]}`)
			f.persistLocked(raw)
			want = append(want, idOf(raw))
		}
		f.snapshotStatus = "finished"
	}
	c := f.watchLive(t, fastWatch())
	c.waitFor(t, "the history", func(c *collector) bool { return c.count() >= 20 })
	f.dropAll()
	c.waitFor(t, "the snapshot and every event", func(c *collector) bool {
		snap := false
		for _, ev := range c.events {
			snap = snap || terminalSnapshot(ev)
		}
		return snap && c.count() >= 23
	})
	c.stop()
	checkExactly(t, c.ids(), want)
	seen := 0
	for _, ev := range c.events {
		if terminalSnapshot(ev) {
			if seen != len(want) {
				t.Fatalf("the finished snapshot came after %d of the conversation's %d events", seen, len(want))
			}
			break
		}
		if !isFullState(ev) {
			seen++
		}
	}
}
