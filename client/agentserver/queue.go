package agentserver

import (
	"context"
	"sync"
	"time"

	"ohwatch/model"
)

// queue sits between the watch loop and its consumer. The loop never
// blocks on the consumer: it appends to the queue, and one sender goroutine
// hands everything that accumulated to the consumer as a Batch. Nothing is
// ever dropped; if the consumer is slow, the next batch is simply larger.
//
// A connection change always starts a new Batch: Conn, when set, took effect
// before that batch's events arrived. This keeps every change observable
// and in order with the events around it.
type queue struct {
	mu       sync.Mutex
	batches  []model.Batch
	finished bool
	wake     chan struct{} // capacity 1: "there is something to send"
	window   time.Duration // coalescing window
	// runtimeSaid is the runtime last queued, so only a change is.
	runtimeSaid *model.Runtime
}

func newQueue(window time.Duration) *queue {
	return &queue{wake: make(chan struct{}, 1), window: window}
}

// signal wakes the sender without ever blocking the caller.
func (q *queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// last returns the batch that new events join, creating it if needed.
// Callers hold mu.
func (q *queue) last() *model.Batch {
	if len(q.batches) == 0 {
		q.batches = append(q.batches, model.Batch{})
	}
	return &q.batches[len(q.batches)-1]
}

// events appends events in order.
func (q *queue) events(evs []model.Event) {
	if len(evs) == 0 {
		return
	}
	q.mu.Lock()
	b := q.last()
	b.Events = append(b.Events, evs...)
	q.mu.Unlock()
	q.signal()
}

// warn appends a non-fatal warning.
func (q *queue) warn(msg string) {
	q.mu.Lock()
	b := q.last()
	b.Warnings = append(b.Warnings, msg)
	q.mu.Unlock()
	q.signal()
}

// runtime queues what the server says of the runtime when it changed.
func (q *queue) runtime(r model.Runtime) {
	q.mu.Lock()
	if q.runtimeSaid != nil && sameRuntime(*q.runtimeSaid, r) {
		q.mu.Unlock()
		return
	}
	q.runtimeSaid = &r
	b := q.last()
	b.Runtime = &r
	q.mu.Unlock()
	q.signal()
}

// saidRuntime reports whether a runtime was queued before.
func (q *queue) saidRuntime() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.runtimeSaid != nil
}

// sameRuntime compares two runtimes, their archive times as instants.
func sameRuntime(a, b model.Runtime) bool {
	return a.Status == b.Status && a.CanResume == b.CanResume && a.Error == b.Error && a.Archived.Equal(b.Archived)
}

// conn records a connection change at this point of the stream.
func (q *queue) conn(cs model.ConnState) {
	q.mu.Lock()
	if n := len(q.batches); n > 0 && q.batches[n-1].Conn == nil && len(q.batches[n-1].Events) == 0 && len(q.batches[n-1].Warnings) == 0 {
		q.batches[n-1].Conn = &cs
	} else {
		q.batches = append(q.batches, model.Batch{Conn: &cs})
	}
	q.mu.Unlock()
	q.signal()
}

// finish says nothing more will be added; the sender closes the channel
// once everything queued is delivered.
func (q *queue) finish() {
	q.mu.Lock()
	q.finished = true
	q.mu.Unlock()
	q.signal()
}

// take removes everything queued.
func (q *queue) take() (bs []model.Batch, finished bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	bs, q.batches = q.batches, nil
	return bs, q.finished
}

// send delivers batches to out until the queue is finished and drained, or
// ctx ends; it closes out either way. Waiting one window after the first
// wake-up lets a burst of frames coalesce into one Batch (about one per
// frame of the UI).
func (q *queue) send(ctx context.Context, out chan<- model.Batch) {
	defer close(out)
	var timer *time.Timer
	if q.window > 0 {
		timer = time.NewTimer(q.window)
		timer.Stop()
	}
	for {
		select {
		case <-q.wake:
		case <-ctx.Done():
			return
		}
		if timer != nil {
			timer.Reset(q.window)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return
			}
		}
		bs, finished := q.take()
		for _, b := range bs {
			select {
			case out <- b:
			case <-ctx.Done():
				return
			}
		}
		if finished {
			// Anything added after take is impossible once finished is set
			// (the producer stops before finishing), but drain to be sure.
			if rest, _ := q.take(); len(rest) == 0 {
				return
			}
			q.signal()
		}
	}
}
