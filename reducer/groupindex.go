package reducer

import (
	"sort"

	"ohwatch/model"
)

// A person filtering the event list by kind (only errors, only hooks) in a
// million-event log must not wait for a scan of every event to find the
// next one shown. The log keeps, per group (model.Groups), the indices of
// its events in file order, so the next or previous event of a set of
// groups is a binary search per group, whatever lies between.

// GroupSet is a set of groups by their position in model.Groups.
type GroupSet uint64

// Has reports whether the set holds the group at position g.
func (s GroupSet) Has(g int) bool { return g >= 0 && g < 64 && s&(1<<uint(g)) != 0 }

// With returns the set with the group at position g added.
func (s GroupSet) With(g int) GroupSet {
	if g < 0 || g >= 64 {
		return s
	}
	return s | 1<<uint(g)
}

// groupIndex holds the indices of the events of each group, ascending.
type groupIndex [][]int32

// add files event j under its group.
func (x *groupIndex) add(j int, ev *model.Event) {
	if *x == nil {
		*x = make(groupIndex, model.NumGroups())
	}
	g := model.GroupIndexOf(ev)
	(*x)[g] = append((*x)[g], int32(j))
}

// NextInGroups returns the first event after i whose group is in set.
func (l *Log) NextInGroups(i int, set GroupSet) (int, bool) { return l.nearestInGroups(i, set, true) }

// PrevInGroups returns the last event before i whose group is in set.
func (l *Log) PrevInGroups(i int, set GroupSet) (int, bool) { return l.nearestInGroups(i, set, false) }

// nearestInGroups is the nearest event after i (forward) or before it
// whose group is in set: a binary search in each group's indices, the
// nearest of their answers.
func (l *Log) nearestInGroups(i int, set GroupSet, forward bool) (int, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	best := -1
	for g, at := range l.byGroup {
		if !set.Has(g) {
			continue
		}
		k := sort.Search(len(at), func(k int) bool { return int(at[k]) > i })
		if !forward {
			// The last index before i: one before the first at or after it.
			k = sort.Search(len(at), func(k int) bool { return int(at[k]) >= i }) - 1
		}
		if k < 0 || k >= len(at) {
			continue
		}
		if j := int(at[k]); best < 0 || forward == (j < best) {
			best = j
		}
	}
	return best, best >= 0
}
