package reducer

import (
	"slices"

	"ohwatch/model"
)

// TailVerdict is the verdict a full fold of an ended recording without a
// base_state.json status reaches, decided from its last events alone
// (tail, oldest first) when they decide it: `ls` reads the tail of a long
// conversation, never all of it. ok is false when they do not, and the
// status is then unknown short of reading everything.
//
// A fold takes its status from the newest status update or error event,
// and from content (a message, an action) only while no status update
// came before it. So, read from the end: a status update decides (with any
// error event after it), and so does an error event with nothing after it
// that could infer a status. A per-field update older than a snapshot
// before it is stale, as in the fold; a snapshot before the tail is not
// seen, and none is recorded (snapshots are live-only). The events must
// be one line of the tree, the end of the last event's path: a tail that
// holds a navigation decides nothing.
func TailVerdict(tail []model.Event) (v Verdict, ok bool) {
	tail, ok = pathEnd(tail)
	if !ok {
		return Verdict{}, false
	}
	var cand *Verdict // the newest error event or status update seen
	infers := false   // an event after cand might infer a status
	for i := len(tail) - 1; i >= 0; i-- {
		ev := tail[i]
		switch b := ev.Body.(type) {
		case *model.StateUpdate:
			if b.ExecutionStatus == "" {
				continue
			}
			if !staleInTail(tail[:i], ev, b) {
				if cand == nil {
					src := SourceStateUpdate
					if b.FullState {
						src = SourceFullState
					}
					cand = &Verdict{Status: b.ExecutionStatus, Source: src, Confirmed: b.FullState}
				}
				return recorded(*cand), true
			}
			// A stale update still voids what content would infer after it.
			if cand != nil {
				return recorded(*cand), true
			}
			infers = false
		case *model.ConversationError:
			if cand == nil {
				cand = &Verdict{Status: model.StatusError, Source: SourceInferred}
			}
			if !infers {
				return recorded(*cand), true
			}
		default:
			if cand == nil {
				infers = true
			}
		}
	}
	return Verdict{}, false
}

// recorded is v as the last status of an ended recording.
func recorded(v Verdict) Verdict {
	v.Recorded = true
	return v
}

// pathEnd is the part of tail that is surely the end of its last event's
// path. Events without a parent_id (a recording older than the tree) each
// follow the one before. Otherwise it starts at the first tree node, with
// the artifacts just before it that name the same parent (they are on its
// line; others may be on another branch), and each event after it must
// continue the line: its parent_id, when it has one, is the tree node
// before it.
func pathEnd(tail []model.Event) ([]model.Event, bool) {
	if !slices.ContainsFunc(tail, func(ev model.Event) bool { return ev.ParentID != "" }) {
		return tail, len(tail) > 0
	}
	first := slices.IndexFunc(tail, func(ev model.Event) bool { return !isArtifact(&ev) })
	if first < 0 {
		return nil, false
	}
	start := first
	if p := tail[first].ParentID; p != "" && p != RootParent {
		for start > 0 && tail[start-1].ParentID == p && isArtifact(&tail[start-1]) {
			start--
		}
	}
	anchor := tail[first].ID
	for k := first + 1; k < len(tail); k++ {
		ev := &tail[k]
		if ev.ParentID != "" && ev.ParentID != anchor {
			return nil, false
		}
		if !isArtifact(ev) {
			anchor = ev.ID
		}
	}
	return tail[start:], true
}

// staleInTail reports whether a per-field update is older than the latest
// snapshot before it among the events read (applyStateUpdate's rule).
func staleInTail(before []model.Event, ev model.Event, u *model.StateUpdate) bool {
	if u.FullState || ev.Time.IsZero() {
		return false
	}
	for k := len(before) - 1; k >= 0; k-- {
		if s, ok := before[k].Body.(*model.StateUpdate); ok && s.FullState && !before[k].Time.IsZero() {
			return ev.Time.Before(before[k].Time)
		}
	}
	return false
}

// TailStats is the stats of the newest status update among a recording's
// last events (accumulated totals, in the snapshot form: no per-call
// lists), nil when none carries them.
func TailStats(events []model.Event) *model.Stats {
	for i := len(events) - 1; i >= 0; i-- {
		if u, ok := events[i].Body.(*model.StateUpdate); ok && u.Stats != nil {
			return u.Stats
		}
	}
	return nil
}
