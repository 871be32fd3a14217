package reducer

import (
	"iter"
	"runtime"
	"slices"

	"ohwatch/model"
)

// The tree as the log knows it. Indices are file-order event indices, as
// everywhere else; -1 means "no event" (the parent of a root, an empty log).

// Linear reports whether the log is one line: no event has two children
// and there is one root. Every recording made before SDK v1.31 is linear,
// and so are most made since.
func (l *Log) Linear() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.segs) <= 1
}

// Head is the last event of HEAD's path: the newest event on the line of
// HEAD's tree event (the state updates written after it included), or
// HEAD's tree event itself once the server has moved HEAD back to it
// (navigate) and nothing has been written since. HEAD is the server's
// leaf_event_id (a full_state snapshot, base_state.json, SetLeaf), else the
// newest tree event. -1 for an empty log. On a linear log it is Len()-1.
func (l *Log) Head() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.headLocked()
}

func (l *Log) headLocked() int {
	if l.leaf < 0 || l.lastAnchor == l.leaf {
		return l.n - 1
	}
	return l.leaf
}

// Leaf is HEAD's tree event (leaf_event_id); -1 while there is none.
func (l *Log) Leaf() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.leaf
}

// SetLeaf moves HEAD to the event with this id, as the server reports it
// (a navigate that succeeded, a REST ConversationInfo): a navigate writes
// no event. It reports whether the id is in the log.
func (l *Log) SetLeaf(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	k, ok := l.st.ids.find(&l.st, id)
	if ok && l.leaf != k {
		l.leaf = k
		l.version++
	}
	return ok
}

// Parent is event i's parent in the fold (the event whose State i's is
// folded onto); -1 for a root or i out of range.
func (l *Log) Parent(i int) int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if i < 0 || i >= l.n {
		return -1
	}
	return l.parentOf(i)
}

// Depth is the number of events before i on its path: At(i).Applied-1.
func (l *Log) Depth(i int) int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if i < 0 || i >= l.n {
		return -1
	}
	return l.depthOf(i)
}

// Path is the path from the root to event tip, in O(branches): the events
// whose fold At(tip) is. Empty for tip out of range.
func (l *Log) Path(tip int) Path {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if tip >= l.n {
		return nil
	}
	return l.pathTo(tip)
}

// HeadPath is Path(Head()): the conversation as the server continues it.
func (l *Log) HeadPath() Path {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.pathTo(l.headLocked())
}

// Children lists event i's children in file order; Children(-1) lists the
// roots.
func (l *Log) Children(i int) []int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if i >= l.n {
		return nil
	}
	return l.childrenOf(i)
}

// BranchPoints lists, sorted, the events with more than one child: where
// HEAD was navigated back to and the conversation went on differently.
func (l *Log) BranchPoints() []int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	// Every child but the event after its parent in file order starts a
	// segment, so counting segments per parent counts the children.
	children := map[int]int{}
	for _, g := range l.segs {
		if g.parent >= 0 {
			children[g.parent]++
		}
	}
	var out []int
	for p, c := range children {
		if next := p + 1; next < l.n && l.segs[l.segIdx(next)].start != next {
			c++
		}
		if c > 1 {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Branches lists the ways on from event i, one per child in file order,
// each with the event it leads to and whether HEAD's path takes it.
func (l *Log) Branches(i int) []Branch {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if i < -1 || i >= l.n {
		return nil
	}
	head := l.pathTo(l.headLocked())
	var out []Branch
	for _, c := range l.childrenOf(i) {
		out = append(out, Branch{First: c, Tip: l.tipLocked(c, head), Head: head.Contains(c)})
	}
	return out
}

// Tip is the event a view of event i leads to: Head() when i is on HEAD's
// path, else the newest event below i (the last one written on the
// branches through it). -1 when i is out of range. `--branch` and the
// branch list show Path(Tip(i)).
func (l *Log) Tip(i int) int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if i < 0 || i >= l.n {
		return -1
	}
	return l.tipLocked(i, l.pathTo(l.headLocked()))
}

func (l *Log) tipLocked(i int, head Path) int {
	if head.Contains(i) {
		return head.Tip()
	}
	return l.newestUnder(i)
}

// Step is one event of a walk along a path, with the States around it.
type Step struct {
	Index  int
	Event  model.Event
	Before State
	After  State
}

// Walk yields the events of path p in order, each with the State before
// and after it: the same States as At, at one Apply per event instead of a
// seek for each. Exports and transcripts read a conversation this way.
//
// A Step's Event is lent: its Raw is the log's own copy of the bytes,
// which the yield must neither change nor keep (bytes.Clone them to keep
// them); every other field of it is the event's own.
func (l *Log) Walk(p Path) iter.Seq[Step] {
	return func(yield func(Step) bool) {
		// The events lend the blocks' bytes, which the log's collection
		// would give to the next log: it is kept until the walk ends.
		defer runtime.KeepAlive(l)
		s := l.Initial()
		l.mu.RLock()
		v, n := l.st.view(), l.n
		l.mu.RUnlock()
		for i, ev := range v.lentEvents(p, n) {
			next := applyAt(s, i, ev)
			if !yield(Step{Index: i, Event: ev, Before: s, After: next}) {
				return
			}
			s = next
		}
	}
}
