package compare

import (
	"ohwatch/model"
	"ohwatch/reducer"
)

// Side is one of the two runs compared, as its source describes it.
type Side struct {
	// Name is "A" or "B".
	Name string
	// Title, Source and ConversationID say what the side is.
	Title, Source, ConversationID string
	Log                           *reducer.Log
	// Through picks the path compared: the branch through the event with
	// this id (a fork's parent is compared along the branch it was forked
	// from, wherever HEAD went since); "" or an id not (yet) in the log
	// compares HEAD's path.
	Through string
	// Ended says the side is a recording that has ended (nothing more can
	// arrive): its last status is final.
	Ended bool
}

// Run is a side and its steps, read as its log grows.
type Run struct {
	Side
	steps *Steps
}

// NewRun returns the run of side; Update reads its log.
func NewRun(side Side) *Run {
	return &Run{Side: side, steps: NewSteps(side.Log)}
}

// Update reads the events appended to the side's log since the last call;
// it reports whether any step was added or changed.
func (r *Run) Update() bool { return r.steps.Update() }

// Path is the path compared: the branch through Through, else HEAD's.
func (r *Run) Path() reducer.Path {
	if r.Through != "" {
		if i, ok := r.Log.IndexOf(r.Through); ok {
			return r.Log.Path(r.Log.Tip(i))
		}
	}
	return r.Log.HeadPath()
}

// Comparison is two runs lined up at one moment.
type Comparison struct {
	A, B *Run
	// PathA and PathB are the paths compared.
	PathA, PathB reducer.Path
	*Alignment
	// SharedUntil is the last event both runs hold by identity along their
	// paths from the start (its index in A's log), -1 when they share none;
	// SharedUntilID is its id.
	SharedUntil   int
	SharedUntilID string
}

// Compare reads what a and b's logs hold now and lines them up.
func Compare(a, b *Run) *Comparison {
	a.Update()
	b.Update()
	pa, pb := a.Path(), b.Path()
	c := &Comparison{A: a, B: b, PathA: pa, PathB: pb, Alignment: Align(a.steps.Along(pa), b.steps.Along(pb))}
	c.SharedUntil, c.SharedUntilID = sharedUntil(a.Log, pa, b.Log, pb)
	return c
}

// sharedUntil walks the two paths from the start while they hold the same
// events by id, skipping on either side the events that are never on a
// branch (state updates, conversation errors, events with no id: a fork
// copies none of them), and returns the last shared one.
func sharedUntil(la *reducer.Log, pa reducer.Path, lb *reducer.Log, pb reducer.Path) (int, string) {
	last, lastID := -1, ""
	na, nb := pa.Len(), pb.Len()
	ia, ib := 0, 0
	sa, sb := spanWalker{p: pa}, spanWalker{p: pb}
	for ia < na && ib < nb {
		xa, xb := sa.at(ia), sb.at(ib)
		ea, eb := la.Event(xa), lb.Event(xb)
		switch {
		case ea.ID != "" && ea.ID == eb.ID:
			last, lastID = xa, ea.ID
			ia, ib = ia+1, ib+1
		case offBranch(&ea):
			ia++
		case offBranch(&eb):
			ib++
		default:
			return last, lastID
		}
	}
	return last, lastID
}

// offBranch reports whether ev is never on a branch of the tree.
func offBranch(ev *model.Event) bool {
	if ev.ID == "" {
		return true
	}
	k := model.KindOf(ev)
	return k != nil && k.Artifact
}

// spanWalker is Path.At for positions read in increasing order, in O(1)
// each.
type spanWalker struct {
	p    reducer.Path
	span int
	base int // the position of p[span].From
}

func (w *spanWalker) at(k int) int {
	for w.span < len(w.p) {
		s := w.p[w.span]
		if k-w.base <= s.To-s.From {
			return s.From + k - w.base
		}
		w.base += s.To - s.From + 1
		w.span++
	}
	return -1
}
