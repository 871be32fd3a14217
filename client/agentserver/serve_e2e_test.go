package agentserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"ohwatch/client/files"
	"ohwatch/internal/testevents"
	"ohwatch/internal/upstream"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
)

// e2eKey is the session key the end-to-end servers require.
const e2eKey = "sk-e2e-7d3c2b1a0f9e8d7c5f1b4a7e"

// bothSockets runs a watch test over the session socket (serve offers it,
// as upstream 1.45+ does) and over the legacy /sockets/events, which the
// same guarantees hold for.
func bothSockets(t *testing.T, test func(*testing.T, WatchOptions)) {
	for _, legacy := range []bool{false, true} {
		name := "session"
		if legacy {
			name = "legacy"
		}
		t.Run(name, func(t *testing.T) {
			opts := fastWatch()
			opts.LegacySocket = legacy
			test(t, opts)
		})
	}
}

// startServe serves one conversation through serve on 127.0.0.1 and
// returns a client for it. The server stops with the test.
func startServe(t testing.TB, opts serve.Options, id string, base *model.BaseState, evs []model.Event) (*serve.Server, *Client) {
	t.Helper()
	opts.Key = e2eKey
	s := serve.New(opts)
	s.Add(id, base, evs)
	url, err := s.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	c, err := New(url, e2eKey)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// recordedOf drops from a watched log the frames a server makes up for
// live subscribers only: full_state snapshots and the per-field
// execution_status a socket of an inactive conversation gets on
// subscribing. Any other event, recorded or not, is kept, so what remains
// must equal the recording.
func recordedOf(got, recording []model.Event) []model.Event {
	known := make(map[string]bool, len(recording))
	for _, ev := range recording {
		known[ev.ID] = true
	}
	var out []model.Event
	for _, ev := range got {
		if !model.Persisted(ev) {
			continue
		}
		if _, ok := ev.Body.(*model.StateUpdate); ok && !known[ev.ID] {
			continue
		}
		out = append(out, ev)
	}
	return out
}

func idsOf(evs []model.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.ID
	}
	return out
}

// sameLog fails unless got is exactly want (ids, order) and folds to the
// identical State.
func sameLog(t *testing.T, base *model.BaseState, baseCount int, got, want []model.Event) {
	t.Helper()
	checkExactly(t, idsOf(got), idsOf(want))
	gs := reducer.Fold(reducer.Initial(base, baseCount), got...)
	ws := reducer.Fold(reducer.Initial(base, baseCount), want...)
	if !reflect.DeepEqual(gs, ws) {
		t.Errorf("final states differ:\n got %+v\nwant %+v", gs, ws)
	}
}

// TestE2ERecordingsThroughServe streams every real recording through the
// agent-server-compatible server and receives it with Watch: the log must
// be the files' log, whether it arrives as REST history or live frames.
func TestE2ERecordingsThroughServe(t *testing.T) {
	for i, dir := range upstream.Trajectories(t) {
		conv, err := files.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("%032x", i+1)
		for _, mode := range []string{"live", "history"} {
			t.Run(filepath.Base(dir)+"/"+mode, func(t *testing.T) {
				opts := serve.Options{StartPaused: mode == "live"}
				_, c := startServe(t, opts, id, conv.Base, conv.Events)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				col := collect(c.Watch(ctx, id, fastWatch()))
				col.waitFor(t, "live", func(c *collector) bool { return c.lives() == 1 })
				if mode == "live" {
					if err := c.Run(ctx, id); err != nil {
						t.Fatal(err)
					}
				}
				// The whole recording, and the status the server derives
				// after its last event: that may come a frame later, and a
				// log with explicit statuses no longer infers one.
				want := reducer.Fold(reducer.Initial(conv.Base, conv.EventFiles), conv.Events...)
				watchedStatus := func(evs []model.Event) string {
					log := reducer.NewLog(conv.Base, conv.EventFiles)
					log.Append(evs...)
					return log.Latest().Status
				}
				col.waitFor(t, "the whole recording and its status", func(c *collector) bool {
					return len(recordedOf(c.events, conv.Events)) >= len(conv.Events) && watchedStatus(c.events) == want.Status
				})
				cancel()
				<-col.done
				sameLog(t, conv.Base, conv.EventFiles, recordedOf(col.events, conv.Events), conv.Events)
				// The watched log, snapshots included, ends in the same status.
				if got := watchedStatus(col.events); got != want.Status {
					t.Errorf("watched status %q, files say %q", got, want.Status)
				}
			})
		}
	}
}

// TestE2ESoakDroppedConnections streams 20k generated events at full speed
// while the server drops the socket at 50 random points: nothing may be
// lost or repeated, the order must be the recording's, and so must the
// final state.
func TestE2ESoakDroppedConnections(t *testing.T) { bothSockets(t, soakDroppedConnections) }

func soakDroppedConnections(t *testing.T, opts WatchOptions) {
	const n, drops = 20000, 50
	evs := testevents.Generated(t, n, 7)
	rng := rand.New(rand.NewPCG(7, 11))
	points := make([]int, 0, drops)
	for len(points) < drops {
		p := 1 + rng.IntN(n)
		if !slices.Contains(points, p) {
			points = append(points, p)
		}
	}
	slices.Sort(points)
	id := fmt.Sprintf("%032x", 0xfeed)
	faults := serve.Faults{DropAtFrames: points}
	s, c := startServe(t, serve.Options{StartPaused: true, Inject: faults}, id, nil, evs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	col := collect(c.Watch(ctx, id, opts))
	// The first frame itself, not only the live state (see watchLive):
	// a run started before the watch's REST catch-up is done can be read
	// whole by it, on a loaded machine, and the test end before the
	// socket has sent the frames it drops (once in 21 runs of the package
	// beside two busy loops: 20,000 events, 0 reconnects).
	col.waitFor(t, "live and the first frame", func(c *collector) bool { return c.lives() >= 1 && len(c.events) > 0 })
	s.Run(id)
	// Three minutes bound it: seconds idle, 33 s under -race at load
	// average 13 on two cores, over 60 s at 16.
	col.waitWithin(t, 3*time.Minute, "every event", func(c *collector) bool {
		return len(c.events) >= n && len(recordedOf(c.events, evs)) >= n
	})
	cancel()
	<-col.done
	reconnects := 0
	for _, cs := range col.conns {
		if cs.Phase == model.PhaseReconnecting {
			reconnects++
		}
	}
	t.Logf("%d events, %d reconnects, %d batches in %v", n, reconnects, col.batches, time.Since(start))
	sameLog(t, nil, 0, recordedOf(col.events, evs), evs)
	if reconnects < drops {
		t.Errorf("%d reconnects, want at least %d (one per drop)", reconnects, drops)
	}
}

// TestE2EOverlappingReplaysAndStaleState drops the socket while the server
// sends every resend's newest events first (as live frames overtaking the
// replay) and re-sends old per-field state updates after each snapshot.
// Frames are delivered in the order received, so the log's order may
// differ from the recording's, but every event arrives exactly once and
// the conversation ends in the same status.
func TestE2EOverlappingReplaysAndStaleState(t *testing.T) {
	bothSockets(t, overlappingReplaysAndStaleState)
}

func overlappingReplaysAndStaleState(t *testing.T, opts WatchOptions) {
	const n = 3000
	evs := testevents.Generated(t, n, 3)
	points := []int{40, 400, 401, 900, 1500, 2200, 2900}
	id := fmt.Sprintf("%032x", 0xbeef)
	faults := serve.Faults{DropAtFrames: points, ReplayOverlap: 5, StaleState: true}
	s, c := startServe(t, serve.Options{StartPaused: true, Inject: faults}, id, nil, evs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(c.Watch(ctx, id, opts))
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() >= 1 })
	s.Run(id)
	// A minute bounds it: seconds idle, but -race beside other builds on
	// two cores has taken over ten.
	col.waitWithin(t, time.Minute, "every event", func(c *collector) bool { return len(c.events) >= n && len(recordedOf(c.events, evs)) >= n })
	cancel()
	<-col.done
	got := recordedOf(col.events, evs)
	gotIDs, wantIDs := idsOf(got), idsOf(evs)
	slices.Sort(gotIDs)
	slices.Sort(wantIDs)
	checkExactly(t, gotIDs, wantIDs)
	gs := reducer.Fold(reducer.Initial(nil, 0), got...)
	ws := reducer.Fold(reducer.Initial(nil, 0), evs...)
	if gs.Status != ws.Status {
		t.Errorf("status %q, recording ends %q", gs.Status, ws.Status)
	}
}

// TestE2ESilentConversationEndsNotFound makes the conversation go silent
// (the socket stays open, REST answers 404), as a deleted conversation
// does: the periodic REST check must end the watch with not_found.
func TestE2ESilentConversationEndsNotFound(t *testing.T) {
	evs := testevents.Generated(t, 50, 5)
	id := fmt.Sprintf("%032x", 0x5111)
	s, c := startServe(t, serve.Options{StartPaused: true}, id, nil, evs)
	opts := fastWatch()
	opts.CheckInterval = 10 * time.Millisecond
	col := collect(c.Watch(context.Background(), id, opts))
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() >= 1 })
	s.Silence(id)
	col.endsFinal(t, CodeNotFound, "")
}

// TestE2ECloseCodes: 1013 is retried until the server takes the socket;
// 4001 ends the watch as an authentication failure.
func TestE2ECloseCodes(t *testing.T) {
	evs := testevents.Generated(t, 20, 9)
	id := fmt.Sprintf("%032x", 0xc105e)
	s, c := startServe(t, serve.Options{Inject: serve.Faults{CloseBusy: 2}}, id, nil, evs)
	ctx, cancel := context.WithCancel(context.Background())
	col := collect(c.Watch(ctx, id, fastWatch()))
	col.waitFor(t, "live after two busy closes", func(c *collector) bool { return c.lives() == 1 })
	cancel()
	<-col.done
	busy := 0
	for _, cs := range col.conns {
		if cs.Phase == model.PhaseReconnecting && !cs.Final {
			busy++
		}
	}
	if busy != 2 {
		t.Errorf("%d retries, want 2: %+v", busy, col.conns)
	}
	checkExactly(t, idsOf(recordedOf(col.events, evs)), idsOf(evs))

	s.SetFaults(serve.Faults{CloseAuth: 1})
	col = collect(c.Watch(context.Background(), id, fastWatch()))
	col.endsFinal(t, CodeAuth, "")
}

// TestE2ESubscribeFrameIsNotPersisted watches a conversation whose replay
// has not started: the server answers the new socket with
// execution_status=idle, its state as the socket subscribed. The watch
// delivers it (the status is real) marked as not of the server's log, so
// what a recording keeps of the watch (the persisted events) is exactly
// the log REST serves, in order.
func TestE2ESubscribeFrameIsNotPersisted(t *testing.T) {
	evs := testevents.Generated(t, 30, 12)
	id := fmt.Sprintf("%032x", 0x1d1e)
	s, c := startServe(t, serve.Options{StartPaused: true}, id, nil, evs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(c.Watch(ctx, id, fastWatch()))
	col.waitFor(t, "the subscribe frame", func(c *collector) bool { return len(c.events) > 0 })
	col.mu.Lock()
	first := col.events[0]
	col.mu.Unlock()
	if su, ok := first.Body.(*model.StateUpdate); !ok || su.ExecutionStatus != model.StatusIdle || !su.Subscribe || model.Persisted(first) {
		t.Fatalf("first delivered %s %+v, want the subscribe-time idle, not persisted", first.Kind, first.Body)
	}
	s.Run(id)
	col.waitFor(t, "the whole recording", func(c *collector) bool { return len(recordedOf(c.events, evs)) == len(evs) })
	// The replay's end is a status the socket delivers like any event.
	col.waitFor(t, "the replay's end", func(c *collector) bool {
		for _, ev := range c.events {
			if su, ok := ev.Body.(*model.StateUpdate); ok {
				if st := su.ExecutionStatus; st == model.StatusFinished || st == model.StatusError || st == model.StatusStuck {
					return true
				}
			}
		}
		return false
	})
	logged, err := c.Events(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	col.waitFor(t, "the server's whole log", func(c *collector) bool {
		n := 0
		for _, ev := range c.events {
			if model.Persisted(ev) {
				n++
			}
		}
		return n >= len(logged)
	})
	col.mu.Lock()
	var persisted []model.Event
	for _, ev := range col.events {
		if model.Persisted(ev) {
			persisted = append(persisted, ev)
		}
	}
	col.mu.Unlock()
	checkExactly(t, idsOf(persisted), idsOf(logged))
}
