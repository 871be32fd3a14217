package reducer

// A navigate moves HEAD back without writing an event, and the
// agent-server keeps its execution_status (a finished run stays finished):
// the status is the conversation's, not a property of HEAD's path, whose
// fold ends mid-run. So the State at a HEAD moved back takes its status
// from the newest event's State when the server stated it there (a
// full_state snapshot, base_state.json): `state`, the watch's result and
// the TUI all say what the server says.

// withServerStatus returns s with the status of newest when newest's
// status is the server's word.
func (s State) withServerStatus(newest State) State {
	switch newest.StatusSource {
	case SourceFullState, SourceBaseState:
	default:
		return s
	}
	if newest.Status == "" {
		return s
	}
	s.Status = newest.Status
	s.StatusSource = newest.StatusSource
	s.StatusConfirmed = newest.StatusConfirmed
	s.StatusAt = newest.StatusAt
	return s
}
