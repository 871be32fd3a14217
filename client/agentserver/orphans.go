package agentserver

import (
	"fmt"
	"time"

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

// orphanage is the events held back for their parents.
type orphanage struct {
	byParent map[string][]heldEvent
	ids      map[string]struct{}
	n        int
}

// heldEvent is an event held back, with when it arrived and whether its
// delivery moves the resume anchor.
type heldEvent struct {
	ev       model.Event
	at       time.Time
	anchored bool
}

// waits reports whether ev must wait for its parent: a tree event (state
// updates and conversation errors never become anyone's parent, nor do
// they start a branch) naming a parent not delivered and not itself held.
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
// cutoff) whose parent is still missing, oldest first.
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
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].at.Before(out[j-1].at); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// oldest is when the longest-held event arrived; ok is false when none is
// held.
func (o *orphanage) oldest() (t time.Time, ok bool) {
	for _, hs := range o.byParent {
		for _, h := range hs {
			if !ok || h.at.Before(t) {
				t, ok = h.at, true
			}
		}
	}
	return t, ok
}

// orphanWarning says that an event was delivered without its parent.
func orphanWarning(ev model.Event) string {
	return model.SanitizeLine(fmt.Sprintf("event %s (%s) names parent %s, which never arrived: shown after the event before it",
		shortID(ev.ID), ev.Kind, shortID(ev.ParentID)))
}

// shortID is the first 8 characters of an id, enough to find it.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
