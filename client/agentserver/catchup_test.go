package agentserver

import (
	"testing"
	"time"

	"ohwatch/model"
)

// TestWatchDeliversTheLastEventsBeforeATerminalSnapshot: the conversation
// ends between the REST history and the socket, so the socket's first
// frame is a full_state saying finished, pushed before the replay of the
// events the history missed. Those events must arrive before that
// snapshot: a headless watch ends on it.
func TestWatchDeliversTheLastEventsBeforeATerminalSnapshot(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(20)
	finishOnSubscribe(f, 1, &want)
	c := f.watchLive(t, fastWatch())
	terminalSnapshotLast(t, f, c, &want)
}

// TestWatchCatchesUpBeforeATerminalSnapshotOnReconnect: the connection
// drops, the conversation ends while the client is away, and the new
// socket's first frame is a full_state saying finished, pushed before the
// replay of what was missed. As on a first connection, those events arrive
// before the snapshot, not after it by way of the reconcile.
func TestWatchCatchesUpBeforeATerminalSnapshotOnReconnect(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(20)
	finishOnSubscribe(f, 2, &want)
	c := f.watchLive(t, fastWatch())
	c.waitFor(t, "the history", func(c *collector) bool { return c.count() >= 20 })
	f.dropAll()
	terminalSnapshotLast(t, f, c, &want)
}

// finishOnSubscribe makes the conversation end just before the n-th
// socket subscribes (1: the first): three more events are persisted, their
// ids added to want, and the snapshot says finished from then on.
func finishOnSubscribe(f *fakeServer, n int, want *[]string) {
	subscribes := 0
	f.beforeSubscribe = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		subscribes++
		if subscribes != n {
			return
		}
		for range 3 {
			raw := f.eventLocked("MessageEvent", `"llm_message":{"role":"assistant","content":[{"type":"text","text":"done"}]}`)
			f.persistLocked(raw)
			*want = append(*want, idOf(raw))
		}
		f.snapshotStatus = "finished"
	}
}

// terminalSnapshotLast waits for the finished snapshot and every event of
// want (which the server's finishOnSubscribe adds to, under its lock),
// stops the watch, and fails unless the events are exactly want and the
// snapshot came after all of them.
func terminalSnapshotLast(t *testing.T, f *fakeServer, c *liveWatch, wantp *[]string) {
	t.Helper()
	wanted := func() []string {
		f.mu.Lock()
		defer f.mu.Unlock()
		return append([]string(nil), *wantp...)
	}
	c.waitFor(t, "the snapshot and every event", func(c *collector) bool {
		snap := false
		for _, ev := range c.events {
			snap = snap || terminalSnapshot(ev)
		}
		return snap && c.count() >= len(wanted())
	})
	c.stop()
	want := wanted()
	checkExactly(t, c.ids(), want)
	seen := 0
	for _, ev := range c.events {
		if terminalSnapshot(ev) {
			if seen != len(want) {
				t.Fatalf("the finished snapshot came after %d of the conversation's %d events", seen, len(want))
			}
			return
		}
		if !isFullState(ev) {
			seen++
		}
	}
}

// TestWatchDeliversEventsNewerThanTheSubscribeFrameAfterIt: the socket
// subscribes before the run starts, so its first frame says idle; the run
// starts (execution_status=running, stamped the frame's moment) before
// the client reads the log to catch up. The running update arrives after
// the frame: the conversation shows running, not the frame's idle.
func TestWatchDeliversEventsNewerThanTheSubscribeFrameAfterIt(t *testing.T) {
	f := newFakeServer(t, "k")
	f.persist(3)
	subscribed, started := false, ""
	f.mu.Lock()
	f.snapshotStatus = model.StatusIdle
	f.beforeSubscribe = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		subscribed = true
	}
	f.beforeEventSearch = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if !subscribed || started != "" {
			return
		}
		// Stamped the frame's very moment, as serve stamps a snapshot
		// with the time of the event it has yet to send.
		f.clock = f.clock.Add(-time.Millisecond)
		raw := f.eventLocked("ConversationStateUpdateEvent", `"key":"execution_status","value":"running"`)
		f.persistLocked(raw)
		for _, ch := range f.subs {
			ch <- raw
		}
		started = idOf(raw)
	}
	f.mu.Unlock()
	startedID := func() string {
		f.mu.Lock()
		defer f.mu.Unlock()
		return started
	}
	c := f.watchLive(t, fastWatch())
	c.waitFor(t, "the run's start", func(c *collector) bool {
		for _, ev := range c.events {
			if id := startedID(); id != "" && ev.ID == id {
				return true
			}
		}
		return false
	})
	c.stop()
	last := ""
	for _, ev := range c.events {
		if u, ok := ev.Body.(*model.StateUpdate); ok && u.ExecutionStatus != "" {
			last = u.ExecutionStatus
		}
	}
	if last != model.StatusRunning {
		t.Fatalf("the latest status is %q, want running (events %v)", last, c.ids())
	}
}
