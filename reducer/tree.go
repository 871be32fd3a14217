package reducer

import (
	"slices"

	"ohwatch/model"
)

// RootParent is the parent_id upstream writes on an event that starts a new
// root: the first event appended after HEAD was navigated to nothing.
const RootParent = "__root__"

// Anchors name the tree line the last appended event continues: an event
// index, or one of these.
const (
	anchorNone = -3 // nothing appended yet
	anchorRoot = -2 // the empty HEAD a RootParent event hangs from
)

// segment is a run of events that follow each other in file order on one
// line of the tree: each event in it is the fold-child of the one before.
// A linear log is one segment; every navigation or fork adds one. Segments
// partition the log in file order, so the segment of an event is found by
// a binary search over their starts.
type segment struct {
	start  int // index of its first event
	parent int // fold-parent of start; -1 for a root
	depth  int // depth of start: the number of events before it on its path
	// ck[m] is the State after the segment's event at depth firstCk+m*K,
	// the depths d with (d+1)%K == 0.
	ck []State
}

// firstCk is the depth of the segment's first checkpointed event.
func (g *segment) firstCk(k int) int { return (g.depth+k)/k*k - 1 }

// Span is a run of events, From through To (inclusive), that follow each
// other in file order on one path.
type Span struct{ From, To int }

// Path is the root-first list of events from a root to one event, as spans
// of consecutive indices: one span for a linear log, one more per branch
// the path takes. It is a value; a Path never changes after it is made.
type Path []Span

// Len is the number of events on the path.
func (p Path) Len() int {
	n := 0
	for _, s := range p {
		n += s.To - s.From + 1
	}
	return n
}

// Tip is the last event of the path; -1 for an empty path.
func (p Path) Tip() int {
	if len(p) == 0 {
		return -1
	}
	return p[len(p)-1].To
}

// At is the index of the k-th event on the path (0 is the root); -1 when k
// is out of range.
func (p Path) At(k int) int {
	if k < 0 {
		return -1
	}
	for _, s := range p {
		if n := s.To - s.From + 1; k < n {
			return s.From + k
		} else {
			k -= n
		}
	}
	return -1
}

// Pos is the position of event i on the path (the inverse of At).
func (p Path) Pos(i int) (int, bool) {
	k := 0
	for _, s := range p {
		if i >= s.From && i <= s.To {
			return k + i - s.From, true
		}
		k += s.To - s.From + 1
	}
	return 0, false
}

// Contains reports whether event i is on the path.
func (p Path) Contains(i int) bool {
	_, ok := p.Pos(i)
	return ok
}

// Indices lists the path's events, root first. It allocates one int per
// event: prefer At, Pos and the spans on long logs.
func (p Path) Indices() []int {
	out := make([]int, 0, p.Len())
	for _, s := range p {
		for i := s.From; i <= s.To; i++ {
			out = append(out, i)
		}
	}
	return out
}

// Branch is one way on from a branch point.
type Branch struct {
	// First is the branch's first event: a child of the branch point.
	First int
	// Tip is the event the branch leads to (see Log.Tip).
	Tip int
	// Head is true when HEAD's path takes this branch.
	Head bool
}

// isArtifact reports whether an event never becomes HEAD: a state update
// (a "non-tree artifact", model.EventKind.Artifact) or an event with no id
// (a streaming delta), which nothing can name as its parent.
func isArtifact(ev *model.Event) bool {
	if ev.ID == "" {
		return true
	}
	k := model.KindOf(ev)
	return k != nil && k.Artifact
}

// foldParent decides the parent of event j in the fold tree and the line
// (anchor) it leaves the log on. Called with the write lock held, before
// the event is added.
//
// Upstream stamps every event with the HEAD of the moment (its parent_id)
// and moves HEAD to every event but the artifacts, so a state update and
// the next action both name the same parent. The fold keeps the order
// they were written in: an event whose parent is the line the previous
// event left off continues that line (its fold-parent is the previous
// event), and only an event naming another parent — HEAD was navigated —
// starts a branch, from that parent itself. Events without parent_id
// (before SDK v1.31) and events naming a parent the log does not hold
// chain to the previous event in file order, as upstream's
// _effective_parent_id does; RootParent starts a new root.
//
// An event of a kind this build does not know may be one upstream treats
// as an artifact (a newer SDK's kind): HEAD did not move to it, so the
// event after it names the same parent it did. Such an event continues
// the line rather than branching from that parent (a fuzzed recording
// whose state update had its kind garbled read as a tree otherwise).
//
// named is the anchor ev's parent_id names (anchorNone when it names none
// the log holds), for that rule's next use.
func (l *Log) foldParent(j int, ev *model.Event) (parent, anchor, named int) {
	art := isArtifact(ev)
	self := j
	if art {
		self = l.lastAnchor
	}
	var p int
	switch {
	case ev.ParentID == RootParent:
		p = anchorRoot
	case ev.ParentID != "":
		k, ok := l.st.ids.find(&l.st, ev.ParentID)
		if !ok {
			return j - 1, self, anchorNone
		}
		p = k
	default:
		return j - 1, self, anchorNone
	}
	if art {
		self = p
	}
	if p == l.lastAnchor || l.unknownAt >= 0 && l.lastAnchor == l.unknownAt && p == l.unknownFrom {
		return j - 1, self, p
	}
	if p == anchorRoot {
		return -1, self, p
	}
	return p, self, p
}

// segIdx is the index in segs of the segment holding event i (0 <= i < n).
func (l *Log) segIdx(i int) int {
	if len(l.segs) == 1 {
		return 0
	}
	k, found := slices.BinarySearchFunc(l.segs, i, func(g segment, i int) int { return g.start - i })
	if !found {
		k--
	}
	return k
}

// segEnd is the last event of segment k.
func (l *Log) segEnd(k int) int {
	if k+1 < len(l.segs) {
		return l.segs[k+1].start - 1
	}
	return l.n - 1
}

// parentOf is event i's fold-parent, -1 for a root.
func (l *Log) parentOf(i int) int {
	g := &l.segs[l.segIdx(i)]
	if i == g.start {
		return g.parent
	}
	return i - 1
}

// depthOf is the number of events before i on its path.
func (l *Log) depthOf(i int) int {
	g := &l.segs[l.segIdx(i)]
	return g.depth + i - g.start
}

// pathTo is the path from the root to event i (empty for i < 0).
func (l *Log) pathTo(i int) Path {
	var rev Path
	for i >= 0 {
		g := &l.segs[l.segIdx(i)]
		rev = append(rev, Span{From: g.start, To: i})
		i = g.parent
	}
	slices.Reverse(rev)
	return rev
}

// childrenOf lists event i's fold-children in file order (i = -1: roots).
func (l *Log) childrenOf(i int) []int {
	var out []int
	if i >= 0 && i+1 < l.n && l.parentOf(i+1) == i {
		out = append(out, i+1)
	}
	for _, g := range l.segs {
		// A segment starting at i+1 has another parent (but for the first
		// root), so i+1 is never counted twice.
		if g.parent == i {
			out = append(out, g.start)
		}
	}
	slices.Sort(out)
	return out
}

// newestUnder is the newest event (highest index) in the subtree of i.
// Segments are in file order and a segment's parent comes before its
// start, so one pass finds every segment that hangs below i.
func (l *Log) newestUnder(i int) int {
	gi := l.segIdx(i)
	newest := l.segEnd(gi)
	in := make([]bool, len(l.segs))
	in[gi] = true
	for k := gi + 1; k < len(l.segs); k++ {
		p := l.segs[k].parent
		if p < 0 {
			continue
		}
		pk := l.segIdx(p)
		if in[pk] && (pk != gi || p >= i) {
			in[k] = true
			newest = max(newest, l.segEnd(k))
		}
	}
	return newest
}
