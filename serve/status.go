package serve

import (
	"ohwatch/model"
	"ohwatch/reducer"
)

// initialState is the reducer's state before the first event. The base
// state's confirmation policy decides which actions wait for approval; its
// status describes the end of the recording and is sent when the replay
// gets there (finalStatusLocked), so it is not placed by the reducer, whose
// event count the events the server makes up would shift.
func initialState(base *model.BaseState) reducer.State {
	s := reducer.Initial(nil, 0)
	if base != nil {
		s.ConfirmationPolicy = base.ConfirmationPolicy
	}
	return s
}

// syncStatusLocked sends the status the reducer newly derived from the
// content of a recording that carries no per-field execution_status
// updates (every CLI recording): a real agent-server would have sent one
// at each change, and clients that read only those (the upstream examples
// do) must see the run start, wait, finish.
func (c *conversation) syncStatusLocked() {
	if c.statusEvents || c.state.Status == c.derived {
		return
	}
	if c.policy != nil && (c.state.Status == model.StatusWaitingForConfirmation || c.derived == model.StatusWaitingForConfirmation) {
		c.derived = c.state.Status // the policy decides the waits (policyWaitLocked)
		return
	}
	c.derived = c.state.Status
	c.sendStatusLocked(c.derived)
}

// finalStatusLocked sends, once the whole recording is out, the status its
// base_state.json reports, when the events did not end there.
func (c *conversation) finalStatusLocked() {
	if c.base != nil {
		c.sendStatusLocked(c.base.ExecutionStatus)
	}
}

// sendStatusLocked emits a per-field execution_status update, unless it
// would repeat the last one sent.
func (c *conversation) sendStatusLocked(status string) {
	if status == "" || status == c.sentStatus || c.silent {
		return
	}
	c.emitNewLocked(statusUpdateJSON(c.nowLocked(), status))
}

// skippedLocked reports whether ev is the recorded result of an action the
// user rejected: the rejection took its place, so it never ran.
func (c *conversation) skippedLocked(ev model.Event) bool {
	if len(c.rejected) == 0 {
		return false
	}
	if c.askSkipped(ev) {
		return true
	}
	switch b := ev.Body.(type) {
	case *model.Observation:
		return c.rejected[b.ActionID]
	case *model.UserReject:
		return c.rejected[b.ActionID]
	case *model.AgentError:
		return c.rejected["call:"+b.ToolCallID]
	}
	return false
}

// runStops reports whether status ends a run, after which the agent-server
// publishes a full_state snapshot: finished, error, stuck, paused, and
// waiting_for_confirmation (the run loop stops for approval).
func runStops(status string) bool {
	return runEnded(status) || status == model.StatusWaitingForConfirmation
}
