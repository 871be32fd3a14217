package fleetsource

import (
	"context"
	"sync"
	"testing"
	"time"

	"ohwatch/model"
)

// fleetView drains a fleet in the background and keeps, per conversation,
// what a consumer folds: the listings, the events' ids, the connection
// states; and the number of slices and the first one.
type fleetView struct {
	mu     sync.Mutex
	convs  map[model.ConversationRef]*convView
	slices int
	first  []model.FleetUpdate
	done   chan struct{}
	sig    signal // a slice was folded
}

// signal wakes whoever waits on a change: each wait gets a channel that
// the next notify closes. Take the channel before looking at the state,
// so a change between the two is not missed.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

func (s *signal) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

type convView struct {
	metas    []model.ConversationMeta
	ids      []string
	conns    []model.ConnState
	warnings []string
	progress bool
}

func watchFleet(t *testing.T, sources ...Source) (*fleetView, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	v := &fleetView{convs: map[model.ConversationRef]*convView{}, done: make(chan struct{})}
	feed := Watch(ctx, sources, Options{Coalesce: 5 * time.Millisecond})
	go func() {
		defer close(v.done)
		for ups := range feed {
			v.mu.Lock()
			if v.slices == 0 {
				v.first = ups
			}
			v.slices++
			for _, u := range ups {
				c := v.convs[u.Ref]
				if c == nil {
					c = &convView{}
					v.convs[u.Ref] = c
				}
				if u.Meta != nil {
					c.metas = append(c.metas, *u.Meta)
				}
				for _, ev := range u.Batch.Events {
					c.ids = append(c.ids, ev.ID)
				}
				if u.Batch.Conn != nil {
					c.conns = append(c.conns, *u.Batch.Conn)
				}
				c.warnings = append(c.warnings, u.Batch.Warnings...)
				c.progress = c.progress || u.Batch.Progress != nil
			}
			v.mu.Unlock()
			v.sig.notify()
		}
	}()
	t.Cleanup(func() { cancel(); <-v.done })
	return v, cancel
}

// waitFor waits until cond (run with the view locked) holds. It looks
// again each time a slice is folded, and each time also (a fake server's
// signal, for a condition on what the server saw) changes: never on a
// clock, whose only use is the bound after which the wait fails.
func (v *fleetView) waitFor(t *testing.T, what string, cond func(v *fleetView) bool, also ...*signal) {
	t.Helper()
	timeout := time.NewTimer(15 * time.Second)
	defer timeout.Stop()
	for waiting := true; waiting; {
		folded := v.sig.wait()
		var other <-chan struct{}
		if len(also) > 0 {
			other = also[0].wait()
		}
		v.mu.Lock()
		ok := cond(v)
		v.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-folded:
		case <-other:
		case <-timeout.C:
			waiting = false
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for ref, c := range v.convs {
		t.Logf("%s/%s: %d listings, %d events, conns %+v, warnings %q", ref.Source, ref.ID, len(c.metas), len(c.ids), c.conns, c.warnings)
	}
	t.Fatalf("timed out waiting for %s; have %d conversations over %d slices", what, len(v.convs), v.slices)
}

// conv returns the view of the conversation with that id (nil if none);
// callers hold mu.
func (v *fleetView) conv(id string) *convView {
	for ref, c := range v.convs {
		if ref.ID == id {
			return c
		}
	}
	return nil
}

// conversations counts the conversations seen (not the sources' own refs);
// callers hold mu.
func (v *fleetView) conversations() int {
	n := 0
	for ref := range v.convs {
		if ref.ID != "" {
			n++
		}
	}
	return n
}

// noDuplicates fails if a conversation received an event id twice.
func noDuplicates(t *testing.T, v *fleetView) {
	t.Helper()
	v.mu.Lock()
	defer v.mu.Unlock()
	for ref, c := range v.convs {
		seen := map[string]bool{}
		for _, id := range c.ids {
			if seen[id] {
				t.Errorf("%s: event %s delivered twice", ref.ID, id)
			}
			seen[id] = true
		}
	}
}
