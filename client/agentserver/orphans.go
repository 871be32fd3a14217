package agentserver

import (
	"fmt"
	"slices"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Frames can arrive out of order: on a reconnect the socket sends its live
// tail before it replays what came earlier, and a REST reconcile runs
// alongside the socket. An event whose parent_id names an event not yet
// delivered would reach the log before its parent, which would read it as
// following the event before it, and the parent, arriving later, as the
// start of another branch: a fork that never happened. So such an event is
// held back until its parent is delivered, and then delivered right after
// it (its own held children after it, and so on). One whose parent never
// comes is delivered after orphanWait with a warning saying so: shown,
// never lost.

// rootParent is the parent_id upstream writes on an event that starts a
// new root (nothing to wait for).
const rootParent = "__root__"

// defaultOrphanWait is how long an event waits for its parent.
const defaultOrphanWait = 5 * time.Second

// orphanage is the events held back for their parents. When a parent is
// missing, everything after it waits behind it (each event's parent is
// the one before), so thousands can be held at once: every operation is
// constant time per event, never a scan of what is held.
type orphanage struct {
	byParent map[string][]heldEvent
	ids      map[string]struct{}
	n        int
	// arrivals are the ids held, in the order they arrived, from head on;
	// an id no longer in ids was delivered since and is skipped.
	arrivals []arrival
	head     int
}

// arrival is when an event was held.
type arrival struct {
	id string
	at time.Time
}

// heldEvent is an event held back, with when it arrived and whether its
// delivery moves the resume anchor.
type heldEvent struct {
	ev       model.Event
	at       time.Time
	anchored bool
}

// waits reports whether ev must wait for its parent: a tree event (state
// updates never become anyone's parent, nor do they start a branch)
// naming a parent not delivered and not itself held.
func (w *watcher) waits(ev *model.Event) bool {
	if ev.ID == "" || ev.ParentID == "" || ev.ParentID == rootParent {
		return false
	}
	if k := model.KindOf(ev); k != nil && k.Artifact {
		return false
	}
	_, seen := w.seen[ev.ParentID]
	return !seen
}

// hold keeps ev until its parent is delivered.
func (o *orphanage) hold(ev model.Event, at time.Time, anchored bool) {
	if o.byParent == nil {
		o.byParent, o.ids = map[string][]heldEvent{}, map[string]struct{}{}
	}
	o.byParent[ev.ParentID] = append(o.byParent[ev.ParentID], heldEvent{ev: ev, at: at, anchored: anchored})
	o.ids[ev.ID] = struct{}{}
	o.n++
	o.arrivals = append(o.arrivals, arrival{id: ev.ID, at: at})
}

// has reports whether an event with this id is held.
func (o *orphanage) has(id string) bool {
	_, ok := o.ids[id]
	return ok
}

// children takes the events held for parent, in the order they arrived.
func (o *orphanage) children(parent string) []heldEvent {
	hs := o.byParent[parent]
	if len(hs) == 0 {
		return nil
	}
	delete(o.byParent, parent)
	for _, h := range hs {
		delete(o.ids, h.ev.ID)
	}
	o.n -= len(hs)
	return hs
}

// stale takes the events held since before cutoff (all of them for a zero
// cutoff) whose parent is still missing, in the order they arrived.
func (o *orphanage) stale(cutoff time.Time) []heldEvent {
	var out []heldEvent
	for parent, hs := range o.byParent {
		keep := hs[:0]
		for _, h := range hs {
			if cutoff.IsZero() || h.at.Before(cutoff) {
				out = append(out, h)
				delete(o.ids, h.ev.ID)
				o.n--
			} else {
				keep = append(keep, h)
			}
		}
		if len(keep) == 0 {
			delete(o.byParent, parent)
		} else {
			o.byParent[parent] = keep
		}
	}
	// Map order is random: deliver in arrival order.
	slices.SortStableFunc(out, func(a, b heldEvent) int { return a.at.Compare(b.at) })
	return out
}

// oldest is when the longest-held event arrived; ok is false when none is
// held. The arrivals already delivered are dropped from the front as it
// looks, so over a watch each is passed over once.
func (o *orphanage) oldest() (t time.Time, ok bool) {
	for o.head < len(o.arrivals) {
		a := o.arrivals[o.head]
		if _, held := o.ids[a.id]; held {
			return a.at, true
		}
		o.arrivals[o.head] = arrival{}
		o.head++
	}
	// Nothing held: start the queue again rather than let it grow.
	o.arrivals, o.head = o.arrivals[:0], 0
	return time.Time{}, false
}

// orphanWarning says that an event was delivered without its parent.
func orphanWarning(ev model.Event) string {
	return sanitize.Line(fmt.Sprintf("event %s (%s) names parent %s, which never arrived: shown after the event before it",
		shortID(ev.ID), ev.Kind, shortID(ev.ParentID)))
}

// shortID is the first 8 characters of an id, enough to find it.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
