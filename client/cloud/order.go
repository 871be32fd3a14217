package cloud

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// orderStored puts the events Cloud stored into the order they happened.
// Cloud's stored-events search does not give that order: the 2025-11 app
// server sorts by a file name of one-second resolution and then by kind,
// so read as given a stored run folds out of order (fewer steps, false
// branches, a snapshot's status last). The events' own timestamps carry
// microseconds: they decide, ties keep the server's order, and an event
// whose parent (parent_id) comes later is moved after it.
//
// An event whose place the timestamps do not decide — no timestamp, or
// one it shares with an event it is not linked to — is still placed, but
// with a warning, and its parent_id is dropped from the event the fold
// reads (Raw is untouched), so a guess is never shown as a branch.
func orderStored(evs []model.Event) ([]model.Event, []string) {
	type item struct {
		ev  model.Event
		pos int // the server's order
	}
	items := make([]item, len(evs))
	for i, ev := range evs {
		items[i] = item{ev, i}
	}
	// No timestamp sorts first among equals: it is the least known.
	slices.SortStableFunc(items, func(a, b item) int {
		if c := a.ev.Time.Compare(b.ev.Time); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	// Parents before children: an event waits for the parent it names
	// when that parent is among the stored events and not placed yet.
	at := make(map[string]int, len(items))
	for i, it := range items {
		if it.ev.ID != "" {
			at[it.ev.ID] = i
		}
	}
	out := make([]model.Event, 0, len(items))
	placed := make([]bool, len(items))
	waiting := map[string][]int{} // parent id → children held back
	var place func(i int)
	place = func(i int) {
		placed[i] = true
		out = append(out, items[i].ev)
		id := items[i].ev.ID
		kids := waiting[id]
		delete(waiting, id)
		for _, k := range kids {
			place(k)
		}
	}
	for i, it := range items {
		if p, ok := at[it.ev.ParentID]; ok && p != i && !placed[p] {
			waiting[it.ev.ParentID] = append(waiting[it.ev.ParentID], i)
			continue
		}
		place(i)
	}
	// Whatever still waits (parents that name each other, in hostile
	// data) keeps its time order at the end.
	for i := range items {
		if !placed[i] {
			placed[i] = true
			out = append(out, items[i].ev)
		}
	}
	return out, ambiguous(out)
}

// maxOrderWarnings caps the warnings one stored history gives: one line
// per guessed event is enough to say so, not a flood.
const maxOrderWarnings = 5

// ambiguous finds the events whose place is a guess, drops their
// parent_id from what the fold reads and words a warning for each.
func ambiguous(evs []model.Event) []string {
	var warns []string
	n := 0
	for i := range evs {
		ev := &evs[i]
		why := ""
		switch {
		case ev.Time.IsZero():
			why = "it has no timestamp"
		case tiedUnlinked(evs, i):
			why = "another event has the same timestamp (" + ev.Time.Format(time.RFC3339Nano) + ")"
		default:
			continue
		}
		ev.ParentID = ""
		n++
		if len(warns) < maxOrderWarnings {
			warns = append(warns, fmt.Sprintf("cloud: stored event %s (%s) may be out of place: %s", sanitize.Line(ev.ID), sanitize.Line(ev.Kind), why))
		}
	}
	if n > maxOrderWarnings {
		warns = append(warns, fmt.Sprintf("cloud: %d more stored events may be out of place", n-maxOrderWarnings))
	}
	return warns
}

// tiedUnlinked reports whether event i shares its timestamp with a
// neighbour that is neither its parent nor its child: then only the
// server's order placed them.
func tiedUnlinked(evs []model.Event, i int) bool {
	ev := &evs[i]
	for _, j := range [2]int{i - 1, i + 1} {
		if j < 0 || j >= len(evs) || !evs[j].Time.Equal(ev.Time) {
			continue
		}
		o := &evs[j]
		linked := (ev.ParentID != "" && ev.ParentID == o.ID) || (o.ParentID != "" && o.ParentID == ev.ID)
		if !linked {
			return true
		}
	}
	return false
}
