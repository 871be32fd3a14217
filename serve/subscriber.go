package serve

import (
	"sync"
	"time"

	"ohwatch/model"
)

// subscriber is one socket's outbox. Emitting never blocks on a slow
// client: frames queue here, in order, until the socket's writer takes them.
type subscriber struct {
	mu     sync.Mutex
	frames [][]byte
	wake   chan struct{} // signalled (capacity 1) when frames were queued
	// session marks a session socket's subscriber: its frames are
	// envelopes (session_socket.go).
	session bool
}

func newSubscriber() *subscriber {
	return &subscriber{wake: make(chan struct{}, 1)}
}

// send queues one frame.
func (s *subscriber) send(frame []byte) {
	s.mu.Lock()
	s.frames = append(s.frames, frame)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// take returns the queued frames and empties the queue.
func (s *subscriber) take() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	frames := s.frames
	s.frames = nil
	return frames
}

// resend is what a socket asked to be resent when it subscribed.
type resend struct {
	all   bool
	since bool
	after time.Time // with since: resend events stamped at or after it
	// afterSeq is a session socket's ?after_seq (nil: live only).
	afterSeq *int
}

// subscribe registers sub for live events and, in the same step, queues
// the snapshot and the history it asked for, so nothing emitted meanwhile
// is lost or (unless a fault asks for it) sent twice. It reports false when
// the conversation already has MaxSubscribers sockets.
func (c *conversation) subscribe(sub *subscriber, r resend, f Faults) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.subs) >= MaxSubscribers {
		return false
	}
	if sub.session {
		c.subscribeSessionLocked(sub, r.afterSeq, f)
		c.subs[sub] = struct{}{}
		return true
	}
	sub.send(c.subscribeFrameLocked())
	if f.StaleState {
		for _, frame := range c.staleFramesLocked() {
			sub.send(frame)
		}
	}
	var history []model.Event
	switch {
	case r.all:
		history = c.emitted
	case r.since && !r.after.IsZero():
		for _, ev := range c.emitted {
			if !ev.Time.IsZero() && !ev.Time.Before(r.after) {
				history = append(history, ev)
			}
		}
	}
	if n := min(f.ReplayOverlap, len(history)); n > 0 {
		for _, ev := range history[len(history)-n:] {
			sub.send(ev.Raw)
		}
	}
	for _, ev := range history {
		sub.send(ev.Raw)
	}
	c.subs[sub] = struct{}{}
	return true
}

// subscribers is the number of sockets subscribed.
func (c *conversation) subscribers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.subs)
}

// unsubscribe forgets sub.
func (c *conversation) unsubscribe(sub *subscriber) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.subs, sub)
}

// staleFramesLocked is what Faults.StaleState re-sends after the snapshot:
// the per-field state updates emitted so far, or, when there are none, a
// made-up execution_status=running stamped with the first event's time.
func (c *conversation) staleFramesLocked() [][]byte {
	if len(c.stale) > 0 {
		return c.stale
	}
	if len(c.emitted) == 0 {
		return nil
	}
	at := c.emitted[0].Time
	if at.IsZero() {
		at = c.created
	}
	return [][]byte{statusUpdateJSON(at, "running")}
}
