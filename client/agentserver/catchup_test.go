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
