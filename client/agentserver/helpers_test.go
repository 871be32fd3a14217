package agentserver

import (
	"context"
	"strings"
	"testing"

	"ohwatch/model"
)

// liveWatch is a watch of the fake server's conversation that the test has
// seen go live, together with the means to end it.
type liveWatch struct {
	*collector
	cancel context.CancelFunc
}

// watchLive starts a watch with opts and waits for its first live state
// and its first frame: the opening that every history-then-live test
// shares. The watch is
// cancelled when the test ends if stop was not called first.
func (f *fakeServer) watchLive(t *testing.T, opts WatchOptions) *liveWatch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	col := collect(f.client(t).Watch(ctx, f.id, opts))
	// Live is announced on the first frame (the socket's full_state),
	// before the watch has caught up over REST and delivered that frame:
	// what the test persists or emits from here on must come after it, so
	// the wait is for the frame itself, which the watch delivers once the
	// catch-up is done. The history's events, delivered during the
	// catch-up, are not enough: an event persisted after them could still
	// be read by it, on a loaded machine, and arrive before the frames
	// the test emits next.
	col.waitFor(t, "live and the first frame", func(c *collector) bool { return c.lives() == 1 && len(c.events) > c.count() })
	return &liveWatch{collector: col, cancel: cancel}
}

// stop cancels the watch and waits until everything it sent was collected,
// so the test can read the collector without racing it.
func (w *liveWatch) stop() {
	w.cancel()
	<-w.done
}

// waitCount waits until n persisted events (snapshots aside) have arrived.
func (c *collector) waitCount(t *testing.T, what string, n int) {
	t.Helper()
	c.waitFor(t, what, func(c *collector) bool { return c.count() == n })
}

// historyThenLive persists history events, watches until live, emits live
// events and checks that every event arrived exactly once, in order. It
// returns the ended watch for checks of what the server saw.
func (f *fakeServer) historyThenLive(t *testing.T, history, live int) *liveWatch {
	t.Helper()
	want := f.persist(history)
	col := f.watchLive(t, fastWatch())
	want = append(want, f.emit(live)...)
	col.waitCount(t, "events", len(want))
	col.stop()
	checkExactly(t, col.ids(), want)
	return col
}

// endsFinal waits for the watch to end and fails unless its last state is
// final with code and, when reasonHas is set, a reason that mentions it.
// It returns that state for further checks.
func (c *collector) endsFinal(t *testing.T, code, reasonHas string) model.ConnState {
	t.Helper()
	<-c.done
	last := c.conns[len(c.conns)-1]
	if !last.Final || last.Code != code || !strings.Contains(last.Reason, reasonHas) {
		t.Errorf("last state = %+v, want final %s (reason mentioning %q)", last, code, reasonHas)
	}
	return last
}

// watchUnreachable watches a conversation on a server that has gone away,
// so that every connection attempt fails.
func watchUnreachable(t *testing.T, opts WatchOptions) *collector {
	t.Helper()
	f := newFakeServer(t, "k")
	base := f.srv.URL
	f.srv.Close()
	c, err := New(base, "k")
	if err != nil {
		t.Fatal(err)
	}
	return collect(c.Watch(context.Background(), f.id, opts))
}
