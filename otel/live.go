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
	state     reducer.State
	next      int
	seen      idSet
}

// Follow starts following a conversation from initial (the log's Initial
// State, which carries its base). A recording (a replay) ends where it
// ends, not at its first terminal state, so that its trace is exactly the
// one `export --format otlp` writes.
func (s *Sink) Follow(conversationID string, initial reducer.State, recording bool) *Live {
	return &Live{b: newBuilder(s.q.add, conversationID, s.opts), recording: recording,
		state: initial, seen: newIDSet()}
}

// Add takes a batch. The root span ends as soon as the conversation reaches
// a terminal state (error, stuck, a confirmed finished); what arrives after
// that belongs to no span.
func (l *Live) Add(evs []model.Event) {
	for _, ev := range evs {
		if l.b.Finished() {
			return
		}
		if ev.ID != "" && !l.seen.add(ev.ID) {
			continue
		}
		next := reducer.Apply(l.state, ev)
		l.b.Add(l.next, ev, l.state, next)
		l.state, l.next = next, l.next+1
		if !l.recording && Terminal(next) {
			l.b.Finish(next, false)
		}
	}
}

// End ends the trace when the watch ends: a live conversation that had not
// reached a terminal state gets its root (and every span still open)
// marked unfinished.
func (l *Live) End() {
	l.b.Finish(l.state, !l.recording && !Terminal(l.state))
}
