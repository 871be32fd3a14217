// Package demo is the conversation bundled in the binary: a scripted,
// deterministic run in which an agent fixes a real-sounding bug in a small
// Go repository (an LRU cache that evicts its hottest keys), then makes it
// safe for concurrent use and pushes the branch after the user approves a
// risky force push (a user who rejects it sees the agent stop without
// pushing: Rejected). It is the first thing a user of `ohwatch demo` sees,
// so it shows every pane at work: a task plan that progresses, tests that
// fail and then pass, diffs, a recovered tool error, a confirmation, a
// condensation, cost and tokens after every LLM call, and a finish.
//
// The events are built with gen.Builder, the same code that generates
// conversations at scale, so they have upstream's exact JSON shape.
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
