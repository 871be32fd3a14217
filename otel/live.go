package otel

import (
	"ohwatch/model"
	"ohwatch/reducer"
)

// Live follows one conversation's events as they arrive and turns them
// into spans sent by its sink. It folds the events itself (Apply is cheap
// and pure, so its States equal the log's) and drops the ones whose id it
// has already seen, as the log does, so a reconnect's replay adds nothing.
// It is not safe for concurrent use: one goroutine feeds it.
type Live struct {
	b         *Builder
	recording bool
	// states are the State after the events so far (states[cur]) and room
	// for the next one: a State is large, and swapping saves a copy of it
	// for every event.
	states [2]reducer.State
	cur    int
	next   int
	seen   model.IDSet
	q      *queue
	ended  []*span // the spans ended by the batch being added
}

// Follow starts following a conversation from initial (the log's Initial
// State, which carries its base). A recording (a replay) ends where it
// ends, not at its first terminal state, so that its trace is exactly the
// one `export --format otlp` writes.
func (s *Sink) Follow(conversationID string, initial reducer.State, recording bool) *Live {
	l := &Live{recording: recording, q: s.q}
	l.b = newBuilder(func(sp *span) { l.ended = append(l.ended, sp) }, conversationID, s.opts)
	l.states[0] = initial
	return l
}

// Add takes a batch. The root span ends as soon as the conversation reaches
// a terminal state (error, stuck, a confirmed finished); what arrives after
// that belongs to no span. The spans the batch ended are queued together.
func (l *Live) Add(evs []model.Event) {
	defer l.send()
	for k := range evs {
		ev := &evs[k]
		if l.b.Finished() {
			return
		}
		if !l.seen.Add(ev.ID) {
			continue
		}
		prev, next := &l.states[l.cur], &l.states[1-l.cur]
		*next = reducer.Apply(*prev, *ev)
		l.b.Add(l.next, ev, prev, next)
		l.cur, l.next = 1-l.cur, l.next+1
		if !l.recording && Terminal(next) {
			l.b.Finish(*next, false)
		}
	}
}

// End ends the trace when the watch ends: a live conversation that had not
// reached a terminal state gets its root (and every span still open)
// marked unfinished.
func (l *Live) End() {
	final := &l.states[l.cur]
	l.b.Finish(*final, !l.recording && !Terminal(final))
	l.send()
}

// send hands the spans ended so far to the queue, which keeps the slice.
func (l *Live) send() {
	if len(l.ended) > 0 {
		l.q.add(l.ended)
		l.ended = make([]*span, 0, cap(l.ended))
	}
}
