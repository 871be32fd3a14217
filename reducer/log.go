package reducer

import (
	"sync"

	"ohwatch/model"
)

// checkpointEvery is K, the default distance between stored States: a seek
// folds at most K events from the nearest checkpoint. Chosen by BenchmarkAt
// on a 1M-event generated log (2 cores): K=256 gave a mean seek of 74 µs;
// K=128 39 µs (p99.9 225 µs of CPU); K=64 23-25 µs (p99.9 190-200 µs), for
// 15,600 checkpoint States (a few MB) per million events. The rare slow
// seeks left (1-5 ms) are garbage-collector assists while a cycle marks the
// million-event heap, not folding.
const checkpointEvery = 64

// chunkSize is the number of events per storage chunk: appends fill fixed
// chunks, so growing the log never copies the events already stored. Every
// checkpoint distance divides it, so that no seek spans two chunks.
const chunkSize = 4096

// Log is the append-only event log of one conversation, with the derived
// State at every event. One goroutine appends while others read: every
// method is safe for concurrent use.
type Log struct {
	mu          sync.RWMutex
	initial     State
	chunks      [][]model.Event
	n           int
	ids         map[string]int
	checkpoints []State // checkpoints[c] is the State after c*K events
	latest      State
	duplicates  int
	version     uint64
	marks       Marks
	every       int // the checkpoint distance K; divides chunkSize
}

// NewLog returns an empty log. base and baseEventCount are as for Initial.
func NewLog(base *model.BaseState, baseEventCount int) *Log {
	return newLogEvery(base, baseEventCount, checkpointEvery)
}

// newLogEvery returns an empty log with checkpoints every k events; k must
// be a power of two no larger than chunkSize.
func newLogEvery(base *model.BaseState, baseEventCount, k int) *Log {
	init := Initial(base, baseEventCount)
	return &Log{
		every:       k,
		initial:     init,
		latest:      init,
		ids:         make(map[string]int),
		checkpoints: []State{init},
	}
}

// Append adds events in order and returns how many were added. An event
// whose id is already in the log is a duplicate (a WebSocket replay, a
// reconnect): it is counted in Duplicates and not added.
func (l *Log) Append(evs ...model.Event) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	added := 0
	for _, ev := range evs {
		if ev.ID != "" {
			if _, dup := l.ids[ev.ID]; dup {
				l.duplicates++
				continue
			}
			l.ids[ev.ID] = l.n
		}
		if l.n%chunkSize == 0 {
			l.chunks = append(l.chunks, make([]model.Event, 0, chunkSize))
		}
		c := len(l.chunks) - 1
		l.chunks[c] = append(l.chunks[c], ev)
		prev := l.latest
		l.latest = Apply(prev, ev)
		l.marks = l.marks.add(l.n, ev, prev, l.latest)
		l.n++
		if l.n%l.every == 0 {
			l.checkpoints = append(l.checkpoints, l.latest)
		}
		added++
	}
	if len(evs) > 0 {
		l.version++
	}
	return added
}

// Len is the number of events in the log.
func (l *Log) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.n
}

// Event returns event i; the zero Event when i is out of range.
func (l *Log) Event(i int) model.Event {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if i < 0 || i >= l.n {
		return model.Event{}
	}
	return l.chunks[i/chunkSize][i%chunkSize]
}

// IndexOf returns the index of the event with this id.
func (l *Log) IndexOf(id string) (int, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	i, ok := l.ids[id]
	return i, ok
}

// Duplicates is the number of events not added because their id was
// already in the log.
func (l *Log) Duplicates() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.duplicates
}

// Version grows on every Append, so views can cache by it.
func (l *Log) Version() uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.version
}

// Latest is the State after the last event, in O(1).
func (l *Log) Latest() State {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.latest
}

// Initial is the State before the first event.
func (l *Log) Initial() State {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.initial
}

// At is the State right after event i: Initial for i < 0, Latest for
// i >= Len. It folds at most K events from the nearest checkpoint.
func (l *Log) At(i int) State {
	l.mu.RLock()
	if i < 0 {
		l.mu.RUnlock()
		return l.initial
	}
	if i >= l.n-1 {
		s := l.latest
		l.mu.RUnlock()
		return s
	}
	n := i + 1
	c := n / l.every
	s := l.checkpoints[c]
	// The checkpoint distance divides chunkSize, so the events from the
	// checkpoint to i lie in one chunk. Stored events never move and never
	// change: the slice taken under the lock is read after it is released.
	from := c * l.every
	var chunk []model.Event
	if n > from {
		off := from % chunkSize
		chunk = l.chunks[from/chunkSize][off : off+n-from]
	}
	l.mu.RUnlock()
	for _, ev := range chunk {
		s = Apply(s, ev)
	}
	return s
}
