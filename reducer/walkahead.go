package reducer

import (
	"iter"
	"runtime"
	"sync/atomic"

	"ohwatch/model"
)

// A walk of a long path decodes its events one batch ahead, on another
// goroutine: rebuilding each event from its bytes was nearly half of a
// `replay --headless --json`'s walk, and it needs nothing the fold or the
// yield does, so a second core does it while the first folds and prints.
const (
	walkAheadFrom = 4 * walkBatch // a shorter path is rebuilt in line
	walkBatch     = 1024          // events per batch handed over
	walkBatches   = 3             // batches: one yielded, one handed over, one filling
)

// lentEvents yields the events of path p, rebuilt as view.lent rebuilds
// them, with their indices. A path past the view's n events ends there.
func (v *view) lentEvents(p Path, n int) iter.Seq2[int, model.Event] {
	return func(yield func(int, model.Event) bool) {
		if p.Len() < walkAheadFrom {
			for i := range p.indices(n) {
				if !yield(i, v.lent(i)) {
					return
				}
			}
			return
		}
		full, free := make(chan walkBatchOf), make(chan []model.Event, walkBatches)
		for range walkBatches {
			free <- make([]model.Event, 0, walkBatch)
		}
		done := make(chan struct{})
		defer func() {
			// The reader lends bytes of the log's blocks: it is gone
			// before the walk returns and may no longer keep the log.
			close(done)
			for range full {
			}
		}()
		go v.readAhead(p, n, full, free, done)
		for b := range full {
			for k, ev := range b.events {
				if !yield(b.first+k, ev) {
					return
				}
			}
			clear(b.events) // drop the references the batch held
			free <- b.events[:0]
		}
	}
}

// readersRunning counts the readAhead goroutines running, which a walk
// must never leave behind (its tests hold it to that).
var readersRunning atomic.Int64

// walkBatchOf is a run of consecutive events of a path, from index first.
type walkBatchOf struct {
	first  int
	events []model.Event
}

// readAhead rebuilds p's events into the free batches and hands them over
// full, in order; it closes full at the end and returns early when done is
// closed (the walk was left).
func (v *view) readAhead(p Path, n int, full chan<- walkBatchOf, free <-chan []model.Event, done <-chan struct{}) {
	defer close(full) // last: the walk returns once it sees it
	readersRunning.Add(1)
	defer readersRunning.Add(-1)
	send := func(b walkBatchOf) bool {
		select {
		case full <- b:
			return true
		case <-done:
			return false
		}
	}
	var b walkBatchOf
	for i := range p.indices(n) {
		if b.events == nil || len(b.events) == walkBatch || b.first+len(b.events) != i {
			if len(b.events) > 0 && !send(b) {
				return
			}
			select {
			case b.events = <-free:
			case <-done:
				return
			}
			b.first = i
		}
		b.events = append(b.events, v.lent(i))
	}
	if len(b.events) > 0 {
		send(b)
	}
}

// indices yields the event indices of p in order, stopping at the first
// not below n.
func (p Path) indices(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, sp := range p {
			for i := sp.From; i <= sp.To; i++ {
				if i < 0 || i >= n || !yield(i) {
					return
				}
			}
		}
	}
}

// Raws yields the stored bytes of path p's events, lent as Walk lends an
// event's Raw, and decodes nothing: for a reader that took what else it
// needs of the events as they were appended.
func (l *Log) Raws(p Path) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		defer runtime.KeepAlive(l)
		l.mu.RLock()
		v, n := l.st.view(), l.n
		l.mu.RUnlock()
		for i := range p.indices(n) {
			if !yield(i, v.raw(v.rec(i))) {
				return
			}
		}
	}
}
