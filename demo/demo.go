package demo

// Conversation returns the demo's base_state.json (as it stands once the
// run has finished: status finished, ConfirmRisky, full Metrics lists) and
// its events in order. Every call builds fresh slices the caller owns; the
// bytes are the same every time.
func Conversation() (base []byte, events [][]byte) {
	s := newStory()
	s.b.KeepCalls()
	s.turn1()
	s.turn2()
	return s.b.BaseState(), s.events
}

// Rejected returns the demo's branch for a rejected force push: the id of
// the push action, and the events that replace everything Conversation
// has after the run stopped to ask for approval (from the status that
// follows it): the agent acknowledges and finishes without pushing.
func Rejected() (actionID string, events [][]byte) {
	s := newStory()
	s.b.KeepCalls()
	s.rejectPush = true
	s.turn1()
	s.turn2()
	return s.pushID, s.events[s.branchAt:]
}
