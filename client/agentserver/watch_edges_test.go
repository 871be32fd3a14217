package agentserver

import (
	"context"
	"strings"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

func TestWatchSocketClose4004IsFinal(t *testing.T) {
	f := newFakeServer(t, "k")
	f.persist(1)
	f.closeWith = closeNotFound
	col := collect(f.client(t).Watch(context.Background(), f.id, fastWatch()))
	col.endsFinal(t, CodeNotFound, "4004")
}

func TestWatchHeaderAuthForServersBeforeFirstFrameAuth(t *testing.T) {
	f := newFakeServer(t, "k")
	f.version = "1.17.0"
	f.historyThenLive(t, 2, 1)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.headerAuths != 1 {
		t.Errorf("%d sockets authenticated by header, want 1", f.headerAuths)
	}
}

func TestWatchReconcileCatchesAnOvertakenFrame(t *testing.T) {
	f := newFakeServer(t, "k")
	want := f.persist(1)
	col := f.watchLive(t, fastWatch())
	// Event A is persisted, but its frame is overtaken by B's and the
	// connection drops before A's is sent. A is older than the anchor (B),
	// so resend_mode=since does not replay it; only the reconcile's slack
	// does.
	want = append(want, f.persist(1)...)
	want = append(want, f.emit(1)...)
	col.waitCount(t, "B", 2)
	f.dropAll()
	col.waitCount(t, "A after the reconnect", 3)
	col.stop()
	got := col.ids()
	if got[2] != want[1] {
		t.Errorf("ids = %v, want the overtaken %s last", got, want[1])
	}
}

// TestWatchFullStateOrderIsKept checks that a snapshot and the frames
// around it reach the consumer exactly in the order received.
func TestWatchFullStateOrderIsKept(t *testing.T) {
	f := newFakeServer(t, "k")
	col := f.watchLive(t, fastWatch())
	a := f.emit(1)
	snap := f.fullState(model.StatusFinished)
	f.broadcast(snap)
	b := f.emit(1)
	col.waitFor(t, "events", func(c *collector) bool { return len(c.events) == 4 })
	col.stop()
	got := []string{col.events[1].ID, col.events[2].ID, col.events[3].ID}
	want := []string{a[0], idOf(snap), b[0]}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("order = %v, want %v", got, want)
	}
}

// TestWatchSkipsTheEventsTheConsumerHas: a watch told which events the
// consumer already has (read from a store before the live stream began)
// delivers only the rest, from history and from the socket alike.
func TestWatchSkipsTheEventsTheConsumerHas(t *testing.T) {
	evs := testevents.Generated(t, 40, 3)
	const id = "0000000000000000000000000000feed"
	_, c := startServe(t, serve.Options{}, id, nil, evs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := fastWatch()
	opts.Seen = idsOf(evs[:30])
	col := collect(c.Watch(ctx, id, opts))
	col.waitFor(t, "the rest", func(c *collector) bool { return len(recordedOf(c.events, evs)) >= 10 })
	cancel()
	<-col.done
	checkExactly(t, idsOf(recordedOf(col.events, evs)), idsOf(evs[30:]))
}
