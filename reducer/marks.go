package reducer

import (
	"slices"

	"ohwatch/model"
)

// Marks are the event indices worth jumping to, each list sorted: errors,
// status changes and user turns. The scrubber draws them and n/N-style
// keys move between them.
type Marks struct {
	Errors        []int
	StatusChanges []int
	UserTurns     []int
}

// marked is what the marks compare in the States before and after an
// event: the rest of a State need not be kept to compare.
type marked struct {
	errors int
	status string
}

// markedOf returns what the marks compare in s.
func markedOf(s *State) marked { return marked{errors: s.ErrorCount, status: s.Status} }

// add records the marks of event i, given the States before and after it.
// The lists only grow by appending, so snapshots taken earlier stay valid.
func (m Marks) add(i int, ev *model.Event, before, after marked) Marks {
	if after.errors > before.errors {
		m.Errors = append(m.Errors, i)
	}
	if after.status != before.status {
		m.StatusChanges = append(m.StatusChanges, i)
	}
	if msg, ok := ev.Body.(*model.Message); ok && ev.Source == "user" && msg != nil {
		m.UserTurns = append(m.UserTurns, i)
	}
	return m
}

// snapshot returns m with each list capped at its length, so a reader's
// copy can never see (or be overwritten by) later appends.
func (m Marks) snapshot() Marks {
	return Marks{
		Errors:        m.Errors[:len(m.Errors):len(m.Errors)],
		StatusChanges: m.StatusChanges[:len(m.StatusChanges):len(m.StatusChanges)],
		UserTurns:     m.UserTurns[:len(m.UserTurns):len(m.UserTurns)],
	}
}

// Marks returns a read-only snapshot of the marks on HEAD's path.
func (l *Log) Marks() Marks {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.marksOn(l.headLocked())
}

// MarksOn returns the marks on the path to event tip.
func (l *Log) MarksOn(tip int) Marks {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if tip < 0 || tip >= l.n {
		return Marks{}
	}
	return l.marksOn(tip)
}

// marksMemo is the marks of the last path asked for but the whole log's.
type marksMemo struct {
	tip   int
	marks Marks
}

// marksOn keeps the marks of the events on the path to tip. Each event's
// marks compare it with its parent on its own path, so they hold on any
// path through it. The path to an event never changes once it is in the
// log, so the marks of the last tip asked for (a frame asks every time)
// are kept.
func (l *Log) marksOn(tip int) Marks {
	p := l.pathTo(tip)
	if len(p) == 1 && p[0].From == 0 && p[0].To == l.n-1 {
		return l.marks.snapshot()
	}
	if m := l.marksMemo.Load(); m != nil && m.tip == tip {
		return m.marks
	}
	m := Marks{
		Errors:        onPath(l.marks.Errors, p),
		StatusChanges: onPath(l.marks.StatusChanges, p),
		UserTurns:     onPath(l.marks.UserTurns, p),
	}
	l.marksMemo.Store(&marksMemo{tip: tip, marks: m})
	return m
}

// onPath keeps the indices of sorted list that lie on p, whose spans are
// sorted and disjoint (a path's indices only grow from root to tip).
func onPath(list []int, p Path) []int {
	out := []int{}
	k := 0
	for _, i := range list {
		for k < len(p) && p[k].To < i {
			k++
		}
		if k == len(p) {
			break
		}
		if i >= p[k].From {
			out = append(out, i)
		}
	}
	return out[:len(out):len(out)]
}

// Next returns the first index in marks after i.
func Next(marks []int, i int) (int, bool) {
	k, found := slices.BinarySearch(marks, i)
	if found {
		k++
	}
	if k < len(marks) {
		return marks[k], true
	}
	return 0, false
}

// Prev returns the last index in marks before i.
func Prev(marks []int, i int) (int, bool) {
	k, _ := slices.BinarySearch(marks, i)
	if k > 0 {
		return marks[k-1], true
	}
	return 0, false
}

// All returns every mark, merged, sorted and without repeats.
func (m Marks) All() []int {
	out := make([]int, 0, len(m.Errors)+len(m.StatusChanges)+len(m.UserTurns))
	out = append(out, m.Errors...)
	out = append(out, m.StatusChanges...)
	out = append(out, m.UserTurns...)
	slices.Sort(out)
	return slices.Compact(out)
}

// Next returns the first mark of any kind after i.
func (m Marks) Next(i int) (int, bool) {
	best, found := 0, false
	for _, list := range [][]int{m.Errors, m.StatusChanges, m.UserTurns} {
		if n, ok := Next(list, i); ok && (!found || n < best) {
			best, found = n, true
		}
	}
	return best, found
}

// Prev returns the last mark of any kind before i.
func (m Marks) Prev(i int) (int, bool) {
	best, found := 0, false
	for _, list := range [][]int{m.Errors, m.StatusChanges, m.UserTurns} {
		if p, ok := Prev(list, i); ok && (!found || p > best) {
			best, found = p, true
		}
	}
	return best, found
}
