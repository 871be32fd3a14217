package agentserver

import (
	"context"
	"testing"
)

// liveWatch is a watch of the fake server's conversation that the test has
// seen go live, together with the means to end it.
type liveWatch struct {
	*collector
	cancel context.CancelFunc
}

// watchLive starts a watch with opts and waits for its first live state:
// the opening that every history-then-live test shares. The watch is
// cancelled when the test ends if stop was not called first.
func (f *fakeServer) watchLive(t *testing.T, opts WatchOptions) *liveWatch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	col := collect(f.client(t).Watch(ctx, f.id, opts))
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() == 1 })
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
