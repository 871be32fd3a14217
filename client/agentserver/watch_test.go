package agentserver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/model"
)

// fastWatch is the option set tests use: no real-second waits, a fixed
// jitter, and pings and checks off unless a test turns them on.
func fastWatch() WatchOptions {
	return WatchOptions{
		BaseBackoff:   time.Millisecond,
		MaxBackoff:    4 * time.Millisecond,
		Jitter:        func(d time.Duration) time.Duration { return d },
		PingInterval:  -1,
		CheckInterval: -1,
		Coalesce:      time.Millisecond,
	}
}

// collector drains a watch in the background and lets a test wait for
// conditions on what arrived.
type collector struct {
	mu       sync.Mutex
	events   []model.Event
	conns    []model.ConnState
	warnings []string
	batches  int
	done     chan struct{}
	// changed is signalled (capacity 1) after each batch: waitFor wakes
	// on it.
	changed chan struct{}
}

func collect(ch <-chan model.Batch) *collector {
	c := &collector{done: make(chan struct{}), changed: make(chan struct{}, 1)}
	go func() {
		defer close(c.done)
		for b := range ch {
			c.mu.Lock()
			c.batches++
			if b.Conn != nil {
				c.conns = append(c.conns, *b.Conn)
			}
			c.events = append(c.events, b.Events...)
			c.warnings = append(c.warnings, b.Warnings...)
			c.mu.Unlock()
			select {
			case c.changed <- struct{}{}:
			default:
			}
		}
	}()
	return c
}

// waitFor checks cond after each batch until it holds; 10 s without it
// fails the test (a bound, not a pace).
func (c *collector) waitFor(t *testing.T, what string, cond func(c *collector) bool) {
	t.Helper()
	c.waitWithin(t, 10*time.Second, what, cond)
}

// waitWithin is waitFor with another bound.
func (c *collector) waitWithin(t *testing.T, within time.Duration, what string, cond func(c *collector) bool) {
	t.Helper()
	bound := time.NewTimer(within)
	defer bound.Stop()
	for {
		c.mu.Lock()
		ok := cond(c)
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-c.changed:
			continue
		case <-c.done:
			c.mu.Lock()
			ok = cond(c)
			c.mu.Unlock()
			if ok {
				return
			}
		case <-bound.C:
		}
		break
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t.Fatalf("timed out waiting for %s; have %d events, conns %+v, warnings %q", what, len(c.events), c.conns, c.warnings)
}

// ids are the received event ids, without live-only snapshots.
func (c *collector) ids() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.idsLocked()
}

// idsLocked is ids for conditions, which run with mu held.
func (c *collector) idsLocked() []string {
	var out []string
	for _, ev := range c.events {
		if !isFullState(ev) {
			out = append(out, ev.ID)
		}
	}
	return out
}

// count is for conditions, which run with mu held.
func (c *collector) count() int { return len(c.idsLocked()) }

func (c *collector) lives() int {
	n := 0
	for _, cs := range c.conns {
		if cs.Phase == model.PhaseLive {
			n++
		}
	}
	return n
}

// checkExactly fails unless the persisted ids arrived once each, in order.
func checkExactly(t *testing.T, got, want []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range got {
		if seen[id] {
			t.Fatalf("event %s delivered twice", id)
		}
		seen[id] = true
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d = %s, want %s", i, got[i], want[i])
		}
	}
}

func TestWatchHistoryThenLive(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(150)
	var snapshots int
	opts := fastWatch()
	opts.OnFullState = func(model.Event) { snapshots++ }
	c := f.watchLive(t, opts)
	// Emitted once the socket has subscribed (its snapshot is in), the
	// events come live; emitted before, they would be history.
	c.waitFor(t, "the snapshot", func(c *collector) bool { return len(c.events) >= 151 })
	want = append(want, f.emit(5)...)
	c.waitFor(t, "live events", func(c *collector) bool { return len(c.events) >= 156 })
	c.stop()
	checkExactly(t, c.ids(), want)
	// The snapshot is delivered as an event, where it arrived: after the
	// history, before the live events.
	if !isFullState(c.events[150]) {
		t.Errorf("event 150 is %s, want the full_state snapshot", c.events[150].Kind)
	}
	if snapshots != 1 {
		t.Errorf("OnFullState called %d times, want 1", snapshots)
	}
	if c.conns[0].Phase != model.PhaseConnecting {
		t.Errorf("first state = %v, want connecting", c.conns[0].Phase)
	}
	// The socket asked only for events at or after the newest history event.
	q := f.sockets[0]
	if !strings.Contains(q, "resend_mode=since") || !strings.Contains(q, "after_timestamp=2026-01-27T03%3A56%3A22.150000") {
		t.Errorf("socket query = %s", q)
	}
	if c.batches > 60 {
		t.Errorf("%d batches for %d events: not coalescing", c.batches, len(c.events))
	}
}

func TestWatchResumesWithAdvancingAnchor(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(3)
	c := f.watchLive(t, fastWatch())
	for round := range 3 {
		want = append(want, f.emit(4)...)
		c.waitCount(t, "live events", len(want))
		f.dropAll()
		c.waitFor(t, "reconnect", func(c *collector) bool { return c.lives() == round+2 })
	}
	want = append(want, f.emit(2)...)
	c.waitCount(t, "final events", len(want))
	c.stop()
	checkExactly(t, c.ids(), want)
	// Each reconnect's anchor is the newest event received before it.
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sockets) != 4 {
		t.Fatalf("%d socket connections, want 4", len(f.sockets))
	}
	for i, q := range f.sockets {
		newest := f.times[3+4*i-1]
		if !strings.Contains(q, "after_timestamp="+strings.ReplaceAll(newest, ":", "%3A")) {
			t.Errorf("connection %d query %s does not resume from %s", i, q, newest)
		}
	}
	var reconnecting int
	for _, cs := range c.conns {
		if cs.Phase == model.PhaseReconnecting {
			reconnecting++
			if cs.Attempt != 1 || cs.RetryIn != time.Millisecond || cs.Reason == "" {
				t.Errorf("reconnecting state = %+v", cs)
			}
		}
	}
	if reconnecting != 3 {
		t.Errorf("%d reconnecting states, want 3", reconnecting)
	}
}

func TestWatchReconcilesEventsMissedWhileAway(t *testing.T) {
	f := newFakeServer(t, "k")
	f.ignoreSince = true // only the REST reconcile can recover the gap
	want := f.persist(2)
	opts := fastWatch()
	opts.BaseBackoff, opts.MaxBackoff = 30*time.Millisecond, 30*time.Millisecond
	c := f.watchLive(t, opts)
	f.dropAll()
	want = append(want, f.persist(5)...) // emitted while the client is away
	c.waitFor(t, "reconnect", func(c *collector) bool { return c.lives() == 2 })
	want = append(want, f.emit(1)...)
	c.waitCount(t, "reconciled", len(want))
	c.stop()
	got := c.ids()
	seen := map[string]int{}
	for _, id := range got {
		seen[id]++
	}
	for _, id := range want {
		if seen[id] != 1 {
			t.Errorf("event %s delivered %d times", id, seen[id])
		}
	}
	// The missed events arrive in REST order.
	var missed []string
	for _, id := range got {
		for _, m := range want[2:7] {
			if id == m {
				missed = append(missed, id)
			}
		}
	}
	checkExactly(t, missed, want[2:7])
}

func TestWatchDropsReplayedDuplicatesAndKeepsOrder(t *testing.T) {
	f := newFakeServer(t, "k")
	f.replayTwice = true  // live tail first, then the whole log again
	f.staleUpdates = true // an old execution_status after the snapshot
	want := f.persist(10)
	c := f.watchLive(t, fastWatch())
	want = append(want, f.emit(3)...)
	c.waitFor(t, "live events", func(c *collector) bool { return c.count() >= len(want)+1 })
	f.dropAll()
	c.waitFor(t, "reconnect", func(c *collector) bool { return c.lives() == 2 })
	want = append(want, f.emit(2)...)
	c.waitFor(t, "more events", func(c *collector) bool { return c.count() >= len(want)+1 })
	c.stop()
	// The stale update is new to the client (it never was in the history),
	// so it is delivered once, after the snapshot, exactly where it arrived.
	var got []string
	staleAt, snapAt := -1, -1
	c.mu.Lock()
	for i, ev := range c.events {
		switch {
		case strings.HasPrefix(ev.ID, "0ld0ld00"):
			if staleAt >= 0 {
				t.Errorf("stale update delivered twice")
			}
			staleAt = i
		case isFullState(ev):
			if snapAt < 0 {
				snapAt = i
			}
		default:
			got = append(got, ev.ID)
		}
	}
	c.mu.Unlock()
	checkExactly(t, got, want)
	if staleAt < snapAt {
		t.Errorf("stale update at %d, snapshot at %d: frames reordered", staleAt, snapAt)
	}
}

func TestWatchAuthRejectedIsFinal(t *testing.T) {
	f := newFakeServer(t, "right-key")
	f.persist(1)
	c, _ := New(f.srv.URL, "wrong-key")
	col := collect(c.Watch(context.Background(), f.id, fastWatch()))
	if last := col.endsFinal(t, CodeAuth, ""); last.Phase != model.PhaseLost {
		t.Errorf("last state = %+v, want phase lost", last)
	}
}

func TestWatchSocketClose4001IsFinal(t *testing.T) {
	f := newFakeServer(t, "k")
	f.persist(1)
	// REST accepts the key, the socket does not: only the socket's 4001 can
	// end the watch.
	f.socketKey = "other"
	col := collect(f.client(t).Watch(context.Background(), f.id, fastWatch()))
	col.endsFinal(t, CodeAuth, "4001")
}

func TestWatchUnknownConversationIsFinal(t *testing.T) {
	f := newFakeServer(t, "k")
	col := collect(f.client(t).Watch(context.Background(), "0000000000000000000000000000dead", fastWatch()))
	col.endsFinal(t, CodeNotFound, "")
}

func TestWatchClose1013Retries(t *testing.T) {
	f := newFakeServer(t, "k")
	f.persist(1)
	f.closeWith = closeTryAgain
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(f.client(t).Watch(ctx, f.id, fastWatch()))
	col.waitFor(t, "retries", func(c *collector) bool { return len(c.conns) >= 4 })
	f.mu.Lock()
	f.closeWith = 0
	f.mu.Unlock()
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() == 1 })
	cancel()
	<-col.done
	cs := col.conns[1]
	if cs.Phase != model.PhaseReconnecting || cs.Final || !strings.Contains(cs.Reason, "1013") {
		t.Errorf("state after 1013 = %+v", cs)
	}
	// The backoff doubles while attempts keep failing (capped at 4 ms here).
	if col.conns[2].RetryIn != 2*time.Millisecond {
		t.Errorf("second retry waits %v, want 2ms", col.conns[2].RetryIn)
	}
}

func TestWatchGivesUpAfterMaxAttempts(t *testing.T) {
	opts := fastWatch()
	opts.MaxAttempts = 3
	col := watchUnreachable(t, opts)
	col.endsFinal(t, CodeConnect, "")
	if n := len(col.conns); n != 5 { // connecting, 3 × reconnecting, lost
		t.Errorf("%d states: %+v", n, col.conns)
	}
}

func TestWatchSilentSocketReconnects(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(2)
	f.silent = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := fastWatch()
	opts.PingInterval, opts.PingTimeout = 20*time.Millisecond, 20*time.Millisecond
	col := collect(f.client(t).Watch(ctx, f.id, opts))
	col.waitFor(t, "a dead-connection verdict", func(c *collector) bool {
		for _, cs := range c.conns {
			if cs.Phase == model.PhaseReconnecting && strings.Contains(cs.Reason, "no pong") {
				return true
			}
		}
		return false
	})
	f.mu.Lock()
	f.silent = false
	f.mu.Unlock()
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() >= 1 })
	want = append(want, f.emit(1)...)
	col.waitCount(t, "events", len(want))
	cancel()
	<-col.done
	checkExactly(t, col.ids(), want)
}

func TestWatchDeletedConversationEndsNotFound(t *testing.T) {
	f := newFakeServer(t, "k")
	f.persist(2)
	opts := fastWatch()
	opts.CheckInterval = 10 * time.Millisecond
	col := f.watchLive(t, opts)
	// The socket stays open and answers pings; only REST knows.
	f.mu.Lock()
	f.deleted = true
	f.mu.Unlock()
	col.endsFinal(t, CodeNotFound, "")
}

func TestWatchOldServerUsesResendAll(t *testing.T) {
	f := newFakeServer(t, "")
	f.version = "1.14.0"
	f.historyThenLive(t, 5, 2)
	if q := f.sockets[0]; !strings.Contains(q, "resend_all=true") || strings.Contains(q, "since") {
		t.Errorf("old server socket query = %s", q)
	}
}

func TestWatchFallsBackWhenSinceIsIgnored(t *testing.T) {
	f := newFakeServer(t, "k")
	f.ignoreSince = true
	want := f.persist(1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(f.client(t).Watch(ctx, f.id, fastWatch()))
	for round := range sinceStrikeLimit {
		col.waitFor(t, "live", func(c *collector) bool { return c.lives() == round+1 })
		want = append(want, f.emit(sinceProbeEvents)...)
		col.waitCount(t, "events", len(want))
		f.dropAll()
	}
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() == sinceStrikeLimit+1 })
	cancel()
	<-col.done
	checkExactly(t, col.ids(), want)
	f.mu.Lock()
	defer f.mu.Unlock()
	last := f.sockets[len(f.sockets)-1]
	if !strings.Contains(last, "resend_mode=all") {
		t.Errorf("after %d strikes the socket query is still %s", sinceStrikeLimit, last)
	}
	if len(col.warnings) != 1 || !strings.Contains(col.warnings[0], "since") {
		t.Errorf("warnings = %q", col.warnings)
	}
}

func TestWatchBadFrameIsAWarning(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(1)
	col := f.watchLive(t, fastWatch())
	f.broadcast([]byte(`<html>proxy error</html>`))
	want = append(want, f.emit(1)...)
	col.waitCount(t, "events", len(want))
	col.stop()
	checkExactly(t, col.ids(), want)
	if len(col.warnings) != 1 || !strings.Contains(col.warnings[0], "not a JSON object") {
		t.Errorf("warnings = %q", col.warnings)
	}
}

// TestWatchPingsKeepAHealthyConnection: the watch pings the server every
// PingInterval (the server counts them) and a server that answers keeps
// the connection as it is: live, never reconnecting.
func TestWatchPingsKeepAHealthyConnection(t *testing.T) {
	f := newFakeServer(t, "k")
	f.pings = make(chan struct{}, 64)
	f.persist(1)
	opts := fastWatch()
	opts.PingInterval, opts.PingTimeout = 2*time.Millisecond, 10*time.Second // generous: a loaded machine is not a dead peer
	col := f.watchLive(t, opts)
	const want = 10
	for n := range want {
		select {
		case <-f.pings:
		case <-time.After(10 * time.Second): // 5,000 intervals: no pinging at all
			t.Fatalf("the server got %d pings of %d", n, want)
		}
	}
	col.stop()
	for _, cs := range col.conns {
		if cs.Phase != model.PhaseConnecting && cs.Phase != model.PhaseLive {
			t.Errorf("a healthy connection changed state: %+v", cs)
		}
	}
	if col.lives() != 1 {
		t.Errorf("went live %d times", col.lives())
	}
}

func TestWatchReconcilesAQuietReconnect(t *testing.T) {
	f := newFakeServer(t, "k")
	f.ignoreSince = true
	want := f.persist(2)
	col := f.watchLive(t, fastWatch())
	f.dropAll()
	want = append(want, f.persist(3)...) // emitted while away; nothing follows
	col.waitCount(t, "the missed events", len(want))
	col.stop()
	checkExactly(t, col.ids(), want)
}

// TestWatchFirstAttemptsFailsFastBeforeLive checks that a server that was
// never reached ends the watch after FirstAttempts, even when MaxAttempts
// would retry for ever.
func TestWatchFirstAttemptsFailsFastBeforeLive(t *testing.T) {
	opts := fastWatch()
	opts.MaxAttempts = 0
	opts.FirstAttempts = 2
	col := watchUnreachable(t, opts)
	col.endsFinal(t, CodeConnect, "")
	if n := len(col.conns); n != 4 { // connecting, 2 × reconnecting, lost
		t.Errorf("%d states: %+v", n, col.conns)
	}
}

// TestWatchWhoseSocketOpenedOutlastsFirstAttempts: the history loads and
// the socket opens, but the server closes it (1012, restarting) before
// its first frame, and refuses the next connections for longer than
// FirstAttempts allow. The server was there, so the watch keeps retrying,
// as one that went live does, and goes live once the server is back.
func TestWatchWhoseSocketOpenedOutlastsFirstAttempts(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(3)
	f.closeWith = 1012 // service restart
	opts := fastWatch()
	opts.FirstAttempts = 2
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(f.client(t).Watch(ctx, f.id, opts))
	col.waitFor(t, "more failed attempts than FirstAttempts", func(c *collector) bool {
		n := 0
		for _, cs := range c.conns {
			if cs.Phase == model.PhaseReconnecting {
				n++
			}
		}
		return n > 2*opts.FirstAttempts
	})
	f.mu.Lock()
	f.closeWith = 0
	f.mu.Unlock()
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() == 1 })
	cancel()
	<-col.done
	for _, cs := range col.conns {
		if cs.Final {
			t.Fatalf("the watch gave up: %+v", cs)
		}
	}
	checkExactly(t, col.ids(), want)
}

// TestWatchFirstWaitOutlastsFirstAttempts: with FirstWait a server not
// reached yet is retried for that long, however many attempts it takes,
// and then the watch ends saying how long it waited.
func TestWatchFirstWaitOutlastsFirstAttempts(t *testing.T) {
	opts := fastWatch()
	opts.FirstAttempts = 2
	opts.FirstWait = 150 * time.Millisecond
	col := watchUnreachable(t, opts)
	col.endsFinal(t, CodeConnect, "waited 150ms")
	n := 0
	for _, cs := range col.conns {
		if cs.Phase == model.PhaseReconnecting {
			n++
		}
	}
	if n <= opts.FirstAttempts {
		t.Errorf("only %d attempts: FirstWait did not replace FirstAttempts", n)
	}
}
