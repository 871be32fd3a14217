package reducer

import (
	"cmp"
	"slices"
	"strings"

	"ohwatch/model"
)

// The growing collections of a State are persistent: each State points at
// the newest node of a singly linked list whose older nodes are shared with
// every earlier State. Adding is O(1) and never copies what came before.

// transitionNode is one status transition and the ones before it.
type transitionNode struct {
	t    Transition
	prev *transitionNode
	n    int // number of nodes up to and including this one
}

func (n *transitionNode) push(t Transition) *transitionNode {
	return &transitionNode{t: t, prev: n, n: n.len() + 1}
}

func (n *transitionNode) len() int {
	if n == nil {
		return 0
	}
	return n.n
}

// slice returns the last max transitions (all when max < 0), oldest first.
func (n *transitionNode) slice(max int) []Transition {
	k := n.len()
	if max >= 0 && max < k {
		k = max
	}
	if k == 0 {
		return nil
	}
	out := make([]Transition, k)
	for i := k - 1; i >= 0; i-- {
		out[i] = n.t
		n = n.prev
	}
	return out
}

// errorNode is one error and the ones before it.
type errorNode struct {
	e    ErrorRef
	prev *errorNode
	n    int
}

func (n *errorNode) push(e ErrorRef) *errorNode {
	l := 0
	if n != nil {
		l = n.n
	}
	return &errorNode{e: e, prev: n, n: l + 1}
}

func (n *errorNode) slice() []ErrorRef {
	if n == nil {
		return nil
	}
	out := make([]ErrorRef, n.n)
	for i := n.n - 1; i >= 0; i-- {
		out[i] = n.e
		n = n.prev
	}
	return out
}

// forgetNode is the set of ids one Condensation forgot, and the sets of
// the condensations before it. Condensations are rare, so a membership test
// walks them. The uuids are held packed and sorted (16 bytes an id, no
// string of the event kept), other ids as sorted copies.
type forgetNode struct {
	uuids  [][2]uint64
	others []string
	prev   *forgetNode
	total  int // distinct ids forgotten up to and including this node
}

func (n *forgetNode) has(id string) bool {
	hi, lo, packed := model.PackUUID(id)
	for ; n != nil; n = n.prev {
		var found bool
		if packed {
			_, found = slices.BinarySearchFunc(n.uuids, [2]uint64{hi, lo}, compareUUID)
		} else {
			_, found = slices.BinarySearch(n.others, id)
		}
		if found {
			return true
		}
	}
	return false
}

// compareUUID orders packed uuids.
func compareUUID(a, b [2]uint64) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

func (n *forgetNode) count() int {
	if n == nil {
		return 0
	}
	return n.total
}

// forget returns the set with ids added, counting each id of one
// condensation once. Ids are not checked against earlier condensations: a
// condensation forgets events of the current view, which holds no event
// already forgotten, and the check would cost a walk per id.
func (n *forgetNode) forget(ids []string) *forgetNode {
	f := &forgetNode{prev: n}
	for _, id := range ids {
		if hi, lo, ok := model.PackUUID(id); ok {
			f.uuids = append(f.uuids, [2]uint64{hi, lo})
		} else if id != "" {
			f.others = append(f.others, strings.Clone(id))
		}
	}
	slices.SortFunc(f.uuids, compareUUID)
	f.uuids = slices.Clip(slices.Compact(f.uuids))
	slices.Sort(f.others)
	f.others = slices.Clip(slices.Compact(f.others))
	fresh := len(f.uuids) + len(f.others)
	if fresh == 0 {
		return n
	}
	f.total = n.count() + fresh
	return f
}

// kindCount is one entry of a kindTable.
type kindCount struct {
	kind string
	n    int
}

// kindTable counts events per kind, sorted by kind. It is copied when it
// changes, so States can share it; it holds only the kinds outside the
// fixed counters, which are few.
type kindTable []kindCount

func (t kindTable) add(kind string) kindTable {
	i, found := slices.BinarySearchFunc(t, kind, func(c kindCount, k string) int {
		switch {
		case c.kind < k:
			return -1
		case c.kind > k:
			return 1
		}
		return 0
	})
	out := make(kindTable, len(t), len(t)+1)
	copy(out, t)
	if found {
		out[i].n++
		return out
	}
	// A copy: the name of a kind this version does not know is the
	// event's own bytes, and the table lives in every State after it.
	return slices.Insert(out, i, kindCount{kind: strings.Clone(kind), n: 1})
}

func (t kindTable) toMap(into map[string]int) map[string]int {
	if into == nil {
		into = make(map[string]int, len(t))
	}
	for _, c := range t {
		into[c.kind] += c.n
	}
	return into
}
