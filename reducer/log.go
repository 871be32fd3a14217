package reducer

import (
	"sync"
	"sync/atomic"

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
//
// Since SDK v1.31 a conversation is a tree: navigation and forks leave
// branches that are no longer part of the conversation. Events keep their
// file-order index (what every caller and the event list use); the State
// at an event is the fold of the path from its root to it (see tree.go for
// how parent_id places an event), and HEAD's path is the conversation.
type Log struct {
	mu      sync.RWMutex
	initial State
	chunks  [][]model.Event
	n       int
	ids     map[string]int
	// segs are the runs of the tree in file order, with their checkpoints;
	// a linear log has one.
	segs       []segment
	latest     State // the State after event n-1, on its own path
	duplicates int
	version    uint64
	marks      Marks // the marks of every event, in file order
	marksMemo  atomic.Pointer[marksMemo]
	every      int // the checkpoint distance K; divides chunkSize
	lastAnchor int // the tree line event n-1 left off (see foldParent)
	leaf       int // HEAD's tree event; -1 while there is none
	base       *model.BaseState
	baseCount  int
	byGroup    groupIndex // the events of each group (groupindex.go)
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
		every:      k,
		initial:    init,
		latest:     init,
		ids:        make(map[string]int),
		lastAnchor: anchorNone,
		leaf:       -1,
		base:       base,
		baseCount:  baseEventCount,
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
		}
		j := l.n
		parent, anchor := l.foldParent(j, &ev)
		var prev State
		switch {
		case parent == j-1 && j > 0:
			prev = l.latest
		case parent < 0:
			prev = l.initial
		default:
			prev = l.atLocked(parent)
		}
		if j == 0 || parent != j-1 {
			depth := 0
			if parent >= 0 {
				depth = l.depthOf(parent) + 1
			}
			l.segs = append(l.segs, segment{start: j, parent: parent, depth: depth})
		}
		if ev.ID != "" {
			l.ids[ev.ID] = j
		}
		if j%chunkSize == 0 {
			l.chunks = append(l.chunks, make([]model.Event, 0, chunkSize))
		}
		c := len(l.chunks) - 1
		l.chunks[c] = append(l.chunks[c], ev)
		l.latest = applyAt(prev, j, ev)
		l.marks = l.marks.add(j, ev, prev, l.latest)
		l.byGroup.add(j, &ev)
		l.n++
		l.lastAnchor = anchor
		l.moveHead(j, &ev)
		if l.latest.Applied%l.every == 0 {
			g := &l.segs[len(l.segs)-1]
			g.ck = append(g.ck, l.latest)
		}
		added++
	}
	if len(evs) > 0 {
		l.version++
	}
	return added
}

// moveHead follows HEAD after event j was added: upstream moves HEAD to
// every event but the artifacts; a full_state snapshot, and base_state.json
// once the events it counted are in, say where HEAD is.
func (l *Log) moveHead(j int, ev *model.Event) {
	if !isArtifact(ev) {
		l.leaf = j
	}
	if u, ok := ev.Body.(*model.StateUpdate); ok && u.LeafEventID != "" {
		if k, ok := l.ids[u.LeafEventID]; ok {
			l.leaf = k
		}
	}
	if l.base != nil && l.base.LeafEventID != "" && j == l.baseCount-1 {
		if k, ok := l.ids[l.base.LeafEventID]; ok {
			l.leaf = k
		}
	}
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

// Version grows on every Append (and when HEAD is moved), so views can
// cache by it.
func (l *Log) Version() uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.version
}

// Latest is the State at HEAD (see Head): the conversation as it is now.
// O(1) while HEAD is the newest event, as it is on every linear log.
func (l *Log) Latest() State {
	l.mu.RLock()
	h := l.headLocked()
	if h == l.n-1 {
		s := l.latest
		l.mu.RUnlock()
		return s
	}
	newest := l.latest
	return l.seekUnlock(h).withServerStatus(newest)
}

// Initial is the State before the first event.
func (l *Log) Initial() State {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.initial
}

// At is the State right after event i: the fold of the path from its root
// to i. Initial for i < 0, Latest for i >= Len. It folds at most K events
// from the nearest checkpoint on that path.
func (l *Log) At(i int) State {
	l.mu.RLock()
	if i < 0 {
		l.mu.RUnlock()
		return l.initial
	}
	if i >= l.n {
		l.mu.RUnlock()
		return l.Latest()
	}
	if i == l.n-1 {
		s := l.latest
		l.mu.RUnlock()
		return s
	}
	return l.seekUnlock(i)
}

// atLocked is At for 0 <= i < n with the lock already held.
func (l *Log) atLocked(i int) State {
	var buf [4]run
	s, runs := l.seek(i, buf[:0])
	return foldRuns(s, runs)
}

// seekUnlock is At for 0 <= i < n, called with the read lock held; it
// releases the lock before folding.
func (l *Log) seekUnlock(i int) State {
	var buf [4]run
	s, runs := l.seek(i, buf[:0])
	l.mu.RUnlock()
	return foldRuns(s, runs)
}

// run is a stretch of stored events to fold, the first at index from.
type run struct {
	from int
	evs  []model.Event
}

// seek returns the checkpoint nearest below event i on i's path and the
// runs of events from it to i, tip first. Stored events never move and
// never change: the slices taken under the lock are read after it is
// released.
func (l *Log) seek(i int, runs []run) (State, []run) {
	k := l.segIdx(i)
	g := &l.segs[k]
	d := g.depth + i - g.start
	c := (d+1)/l.every*l.every - 1 // depth of the checkpointed ancestor; -1: Initial
	to := i
	for {
		from := g.start
		if c >= g.depth {
			from = g.start + c - g.depth + 1
		}
		runs = l.chunkRuns(runs, from, to)
		if c >= g.depth {
			return g.ck[(c-g.firstCk(l.every))/l.every], runs
		}
		if g.parent < 0 {
			return l.initial, runs
		}
		to = g.parent
		g = &l.segs[l.segIdx(to)]
	}
}

// chunkRuns appends the events from..to as runs that each lie in one
// chunk, the last chunk first (runs are folded from the end).
func (l *Log) chunkRuns(runs []run, from, to int) []run {
	for to >= from {
		a := max(from, to/chunkSize*chunkSize)
		off := a % chunkSize
		runs = append(runs, run{from: a, evs: l.chunks[a/chunkSize][off : off+to-a+1]})
		to = a - 1
	}
	return runs
}

// foldRuns folds runs (tip first, as seek returns them) onto s.
func foldRuns(s State, runs []run) State {
	for r := len(runs) - 1; r >= 0; r-- {
		for k, ev := range runs[r].evs {
			s = applyAt(s, runs[r].from+k, ev)
		}
	}
	return s
}
