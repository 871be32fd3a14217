package reducer

import (
	"bytes"
	"sync"
	"sync/atomic"

	"ohwatch/model"
)

// checkpointEvery is K, the default distance between stored States: a seek
// folds at most K events from the nearest checkpoint, each decoded again
// from its raw bytes. Chosen by BenchmarkAt and BenchmarkOpenBig on a
// 1M-event generated log (2 cores): K=64 gave a mean seek of 130 µs of
// CPU (p99.9 600 µs) and 1.147x the JSON in resident memory; K=32 68 µs
// (p99.9 350 µs) and 1.169x, 31,250 checkpoint States per million events;
// K=16 had taken resident memory past 1.2x for little gain.
const checkpointEvery = 32

// onePassEvery is K for a log read through once, front to back (NewOnePassLog).
// The checkpoints of a million-event log at K=32 and what only they hold
// (their task lists, usage lists, the strings they copied) were 45 MiB,
// a thirtieth of the JSON at the peak of a `state`; at K=256 they are an
// eighth of that (BenchmarkPeakState: 1.231x the JSON → 1.199x). Such a log seeks only where its HEAD was moved
// back (a branch point, folding at most K events: under a millisecond)
// and once for the State a command prints.
const onePassEvery = 256

// chunkSize bounds the checkpoint distance K (every K divides it).
const chunkSize = 4096

// eventCache is the number of decoded events a log keeps at hand: the
// rows on screen and the newest events, which views read again and again.
const eventCache = 512

// cachedEvent is a decoded event and its index + 1 (0: an empty slot).
// An event kept as Append folded it has its Raw in the log's block
// (shared), which is copied when the event is handed out: nothing outside
// the log may point into a block a collected log's cleanup pools.
type cachedEvent struct {
	i1     int
	ev     model.Event
	shared bool
}

// cached returns event i when the cache holds it.
func (l *Log) cached(i int) (model.Event, bool) {
	l.cacheMu.Lock()
	defer l.cacheMu.Unlock()
	if l.cache == nil {
		return model.Event{}, false
	}
	if c := &l.cache[i&(eventCache-1)]; c.i1 == i+1 {
		ev := c.ev
		if c.shared {
			ev.Raw = bytes.Clone(ev.Raw)
		}
		return ev, true
	}
	return model.Event{}, false
}

// keep puts event i in the cache.
func (l *Log) keep(i int, ev model.Event, shared bool) {
	l.cacheMu.Lock()
	if l.cache == nil {
		l.cache = new([eventCache]cachedEvent)
	}
	l.cache[i&(eventCache-1)] = cachedEvent{i1: i + 1, ev: ev, shared: shared}
	l.cacheMu.Unlock()
}

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
	st      store // the events (store.go)
	n       int
	cacheMu sync.Mutex
	cache   *[eventCache]cachedEvent // by index mod eventCache, made on first use
	// segs are the runs of the tree in file order, with their checkpoints;
	// a linear log has one.
	segs       []segment
	latest     State // the State after event n-1, on its own path
	duplicates int
	snapshots  int // full_state snapshots appended (Snapshots)
	version    uint64
	marks      Marks // the marks of every event, in file order
	marksMemo  atomic.Pointer[marksMemo]
	every      int // the checkpoint distance K; divides chunkSize
	lastAnchor int // the tree line event n-1 left off (see foldParent)
	// unknownAt is lastAnchor when an event of a kind this build does not
	// know set it (-1 otherwise), unknownFrom the anchor that event named
	// as its parent (see foldParent).
	unknownAt, unknownFrom int
	leaf                   int // HEAD's tree event; -1 while there is none
	base                   *model.BaseState
	baseCount              int
	byGroup                groupIndex // the events of each group (groupindex.go)

	results resultIndex // the result of each action (results.go)
}

// NewLog returns an empty log. base and baseEventCount are as for Initial.
func NewLog(base *model.BaseState, baseEventCount int) *Log {
	return newLogEvery(base, baseEventCount, checkpointEvery)
}

// NewOnePassLog is NewLog for a log that is read through once, front to
// back, and then dropped (a `state`, an export, the headless lines of a
// recording): its checkpoints are sparser (onePassEvery), so a seek folds
// more events. A view that seeks as its user moves (the TUI) takes
// NewLog.
func NewOnePassLog(base *model.BaseState, baseEventCount int) *Log {
	return newLogEvery(base, baseEventCount, onePassEvery)
}

// newLogEvery returns an empty log with checkpoints every k events; k must
// be a power of two no larger than chunkSize.
func newLogEvery(base *model.BaseState, baseEventCount, k int) *Log {
	init := Initial(base, baseEventCount)
	l := &Log{
		every:      k,
		initial:    init,
		latest:     init,
		lastAnchor: anchorNone,
		unknownAt:  -1,
		leaf:       -1,
		base:       base,
		baseCount:  baseEventCount,
	}
	// A recording says how many events it holds: its id index is
	// sized once (idindex.go).
	l.st.ids.reserve(baseEventCount)
	return l
}

// Append adds events in order and returns how many were added. An event
// whose id is already in the log is a duplicate (a WebSocket replay, a
// reconnect): it is counted in Duplicates and not added.
func (l *Log) Append(evs ...model.Event) int { return l.AppendEach(nil, evs...) }

// AppendEach is Append that calls each with every event added, its index
// and the State after it on its path, as the log folded it; follows
// reports that the event's parent is the one added before it (or that it
// is the first), so that the State is the fold of every event so far. A
// reader that needs the State after every event of a linear recording
// (the headless lines) reads it here instead of folding every event a
// second time: a second fold was a second set of the State's lists in the
// heap. each runs with the log locked: it must not call the log.
func (l *Log) AppendEach(each func(j int, follows bool, s *State), evs ...model.Event) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	added := 0
	for k, ev := range evs {
		if _, dup := l.st.ids.find(&l.st, ev.ID); dup {
			l.duplicates++
			continue
		}
		j := l.n
		parent, anchor, named := l.foldParent(j, &ev)
		// The newest State is folded in place: on a linear log, the
		// parent's State is the newest already.
		switch {
		case parent == j-1 && j > 0:
		case parent < 0:
			l.latest = l.initial
		default:
			l.latest = l.atLocked(parent)
		}
		before := markedOf(&l.latest)
		if j == 0 || parent != j-1 {
			depth := 0
			if parent >= 0 {
				depth = l.depthOf(parent) + 1
			}
			l.segs = append(l.segs, segment{start: j, parent: parent, depth: depth})
		}
		folded := l.st.add(j, ev)
		l.latest.apply(j, &folded)
		if each != nil {
			each(j, parent == j-1, &l.latest)
		}
		l.marks = l.marks.add(j, &folded, before, markedOf(&l.latest))
		if len(evs)-k <= eventCache {
			// The newest events are read next (a live view, headless
			// lines): kept decoded, their strings copied out of the
			// caller's buffers (a big event's own buffer would otherwise
			// stay alive with them), their Raw the stored bytes.
			kept := ev.Detached()
			kept.Raw = folded.Raw
			l.keep(j, kept, true)
		}
		l.byGroup.add(j, &ev)
		l.results.add(&l.st, j, &ev)
		if su, ok := ev.Body.(*model.StateUpdate); ok && su.FullState {
			l.snapshots++
		}
		l.n++
		l.lastAnchor = anchor
		l.unknownAt = -1
		if anchor == j && model.KindOf(&ev) == nil {
			l.unknownAt, l.unknownFrom = j, named
		}
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
		if k, ok := l.st.ids.find(&l.st, u.LeafEventID); ok {
			l.leaf = k
		}
	}
	if l.base != nil && l.base.LeafEventID != "" && j == l.baseCount-1 {
		if k, ok := l.st.ids.find(&l.st, l.base.LeafEventID); ok {
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

// Event returns event i; the zero Event when i is out of range. It is
// decoded again from its raw bytes unless it is one of the few kept at
// hand.
func (l *Log) Event(i int) model.Event {
	if ev, ok := l.cached(i); ok && i >= 0 {
		return ev
	}
	l.mu.RLock()
	if i < 0 || i >= l.n {
		l.mu.RUnlock()
		return model.Event{}
	}
	v := l.st.view()
	l.mu.RUnlock()
	ev := v.event(i)
	l.keep(i, ev, false)
	return ev
}

// IndexOf returns the index of the event with this id.
func (l *Log) IndexOf(id string) (int, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.st.ids.find(&l.st, id)
}

// Decoded reports whether event i's Raw is bytes model.Decode accepted
// when they came, unchanged since: the log stores those (and rebuilds the
// event from them). An event it keeps whole (a placeholder, one built by
// hand) may hold any bytes. A writer of many events skips validating
// those it is told are decoded.
func (l *Log) Decoded(i int) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if i < 0 || i >= l.n {
		return false
	}
	v := l.st.view()
	return v.rec(i).flags&flagWhole == 0
}

// Snapshots is the number of full_state snapshots in the log: events only
// a watch sees (a server's event count and a recording hold none), counted
// as they come, so that telling them apart reads no event again.
func (l *Log) Snapshots() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.snapshots
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
	return foldRuns(s, runs, l.st.view())
}

// seekUnlock is At for 0 <= i < n, called with the read lock held; it
// releases the lock before folding.
func (l *Log) seekUnlock(i int) State {
	var buf [4]run
	s, runs := l.seek(i, buf[:0])
	v := l.st.view()
	l.mu.RUnlock()
	return foldRuns(s, runs, v)
}

// run is a stretch of stored events to fold, from through to.
type run struct{ from, to int }

// seek returns the checkpoint nearest below event i on i's path and the
// runs of events from it to i, tip first. Stored events never move and
// never change: a view taken under the lock is read after it is released.
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
		runs = append(runs, run{from: from, to: to})
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

// foldRuns folds runs (tip first, as seek returns them) onto s, each
// event decoded again from its raw bytes.
func foldRuns(s State, runs []run, v view) State {
	for r := len(runs) - 1; r >= 0; r-- {
		for i := runs[r].from; i <= runs[r].to; i++ {
			ev := v.folded(i)
			s.apply(i, &ev)
		}
	}
	return s
}
