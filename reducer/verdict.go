package reducer

import (
	"time"

	"ohwatch/format"
	"ohwatch/model"
)

// Verdict is what a surface says about a conversation's status: the status,
// where it came from, and how far it can be trusted. It is decided here
// alone, so the TUI header, `state`, `ls`, the exports and the headless
// result never disagree about the same conversation.
//
// The rule: a recording that has ended (nothing more can arrive) has a
// final last status, whatever its source — a per-field or inferred
// finished cannot be reverted by a Stop hook that will never run — and it
// says so with its provenance, "finished (recorded, inferred)". A live
// stream keeps the distinction between a provisional per-field finished
// ("finished?") and one confirmed by a full_state snapshot or
// base_state.json.
type Verdict struct {
	Status    string
	Source    StatusSource
	Confirmed bool // a full_state snapshot, base_state.json or the server said so
	Recorded  bool // the status is the last of a recording that has ended
}

// SourceREST is the provenance of a status read from the agent-server's
// REST answer rather than from events.
const SourceREST StatusSource = "rest"

// Verdict returns the verdict on s. ended says s is the state after the
// last event of a recording that has ended; a live stream, a recording
// still being read or followed, and any earlier point of a recording pass
// false.
func (s State) Verdict(ended bool) Verdict {
	return Verdict{Status: s.Status, Source: s.StatusSource, Confirmed: s.StatusConfirmed, Recorded: ended}
}

// BaseVerdict is the verdict on a recording of which only base_state.json
// was read (`ls` reads no events): base_state.json describes the end of the
// log and the reducer applies it at the last event, so this is the verdict
// a full fold of the recording reaches. ok is false when base_state.json
// has no status, and the events must be folded to know it.
func BaseVerdict(base *model.BaseState) (v Verdict, ok bool) {
	if base == nil || base.ExecutionStatus == "" {
		return Verdict{}, false
	}
	s := Initial(base, 0)
	s.applyBase(-1, time.Time{})
	return s.Verdict(true), true
}

// Final reports whether nothing can change the status any more.
func (v Verdict) Final() bool { return v.Confirmed || v.Recorded }

// String is the verdict in full, the same on every surface:
// "finished (recorded, inferred)", "finished? (provisional, per-field)".
func (v Verdict) String() string {
	return format.Verdict(v.Status, string(v.Source), v.Confirmed, v.Recorded)
}

// Short is the status alone for a narrow column: "finished?" while a
// finished is provisional.
func (v Verdict) Short() string { return format.Status(v.Status, v.Final()) }
