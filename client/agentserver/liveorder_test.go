package agentserver

import (
	"testing"
)

// TestWatchKeepsTheServersOrderWhenALiveFrameOvertakesTheReplay: events
// are persisted between the REST history and the socket, and the run ends
// while the server builds the socket's snapshot, so the live
// execution_status=finished frame comes first, before the snapshot and
// before the replay of the events the history missed. The watch delivers
// the server's log in its order all the same, the live frame included (it
// is an event of the log, not the subscribe snapshot).
func TestWatchKeepsTheServersOrderWhenALiveFrameOvertakesTheReplay(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(5)
	f.beforeSubscribe = func() {
		missed := f.persist(2)
		f.mu.Lock()
		want = append(want, missed...)
		f.mu.Unlock()
	}
	f.whileSubscribing = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		raw := f.eventLocked("ConversationStateUpdateEvent", `"key":"execution_status","value":"finished"`)
		f.persistLocked(raw)
		for _, ch := range f.subs {
			ch <- raw
		}
		want = append(want, idOf(raw))
		f.snapshotStatus = "finished"
	}
	c := f.watchLive(t, fastWatch())
	c.waitFor(t, "every event", func(c *collector) bool { return c.count() >= 8 })
	c.stop()
	f.mu.Lock()
	got := append([]string(nil), want...)
	f.mu.Unlock()
	checkExactly(t, c.ids(), got)
}

// TestWatchKeepsTheServersOrderWhenALiveFrameOvertakesTheReplayOnReconnect:
// the connection drops, events are persisted while the client is away, and
// the run goes on while the server builds the new socket's snapshot, so a
// live state update (no parent to wait for) comes first, before the
// snapshot and before the replay of what was missed. The watch delivers the
// server's log in its order all the same: what the dropped connection
// missed, then the live frame.
func TestWatchKeepsTheServersOrderWhenALiveFrameOvertakesTheReplayOnReconnect(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(5)
	c := f.watchLive(t, fastWatch())
	c.waitFor(t, "the history", func(c *collector) bool { return c.count() >= 5 })
	f.mu.Lock()
	f.beforeSubscribe = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for range 3 {
			raw := f.eventLocked("MessageEvent", `"llm_message":{"role":"assistant","content":[{"type":"text","text":"missed"}]}`)
			f.persistLocked(raw)
			want = append(want, idOf(raw))
		}
		f.beforeSubscribe = nil
	}
	f.whileSubscribing = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		raw := f.eventLocked("ConversationStateUpdateEvent", `"key":"execution_status","value":"running"`)
		f.persistLocked(raw)
		for _, ch := range f.subs {
			ch <- raw
		}
		want = append(want, idOf(raw))
		f.whileSubscribing = nil
	}
	f.mu.Unlock()
	f.dropAll()
	c.waitFor(t, "every event", func(c *collector) bool { return c.count() >= 9 })
	c.stop()
	f.mu.Lock()
	got := append([]string(nil), want...)
	f.mu.Unlock()
	checkExactly(t, c.ids(), got)
}
