package reducer

import (
	"strings"

	"ohwatch/model"
)

// responseWindow is how many recent llm_response_ids are remembered to
// count distinct LLM steps. The events of one response (parallel tool
// calls) arrive together, so a small window counts them exactly without a
// set that grows with the log.
const responseWindow = 4

// countResponse counts an LLM step when id was not among the recent
// response ids; it also attributes the step's usage from the base when no
// stats update is in the log.
func (s *State) countResponse(i int, ev model.Event, id string, step bool) {
	if id == "" {
		return
	}
	// The newest id first: the other calls of one response repeat it.
	last := (s.recentNext + responseWindow - 1) % responseWindow
	if s.recentIDs[last] == id {
		return
	}
	for _, r := range s.recentIDs {
		if r == id {
			return
		}
	}
	// A copy: States keep the ids for good (a checkpoint every K events),
	// and the event's id shares one block with all its other strings.
	s.recentIDs[s.recentNext] = strings.Clone(id)
	s.recentNext = (s.recentNext + 1) % responseWindow
	if step {
		s.Iteration++
		s.Steps++
	}
	s.attributeByResponse(i, id)
	// The agent took a step but no metrics were ever reported (a recording
	// without stats or base state): its cost is unknown, not $0.
	if c := s.Metrics.Combined; s.Steps > 0 && c.LLMCalls == 0 && c.Tokens() == 0 && c.CostUSD == 0 {
		s.Metrics.Combined.CostKnown = false
	}
}

// applyAction handles an ActionEvent: a tool call that is pending until its
// result arrives.
func (s *State) applyAction(i int, ev model.Event, a *model.Action) {
	s.history++
	s.countResponse(i, ev, a.LLMResponseID, true)
	if a.ActionKind == "" {
		// The call could not be parsed; an AgentErrorEvent follows and
		// nothing waits for a result.
		return
	}
	p := PendingAction{
		Index:        i,
		ID:           ev.ID,
		ToolName:     a.ToolName,
		ToolCallID:   a.ToolCallID,
		Summary:      ev.Summary,
		SecurityRisk: a.SecurityRisk,
	}
	ownAll(&p.ID, &p.ToolName, &p.ToolCallID, &p.Summary, &p.SecurityRisk)
	s.Pending = appendPending(s.Pending, p)
	if a.ActionKind == "TaskTrackerAction" && a.TaskCommand == "plan" {
		s.Tasks.Tentative = taskItems(a.Plan)
		s.Tasks.TentativeAt = i
		s.tentativeID = p.ID
	}
	switch {
	case a.ActionKind == "FinishAction":
		s.infer(i, ev.Time, model.StatusFinished)
	case needsConfirmation(s.ConfirmationPolicy, a):
		s.infer(i, ev.Time, model.StatusWaitingForConfirmation)
	case s.Status != model.StatusWaitingForConfirmation:
		s.infer(i, ev.Time, model.StatusRunning)
	}
}

// applyObservation handles a tool result: it settles its action, may carry
// the task list, and counts as an error when is_error is set.
func (s *State) applyObservation(i int, ev model.Event, o *model.Observation) {
	s.history++
	s.settle(o.ActionID, "")
	s.closeQuestionOf(o.ActionID, "")
	if o.IsError || exitFailed(o) {
		s.addError(i, ev.Kind, ev.Summary)
	}
	if o.ObservationKind == "TaskTrackerObservation" && !o.IsError && o.HasTaskList {
		s.Tasks.Items = taskItems(o.TaskList)
		s.Tasks.ChangedAt = i
	}
	if o.ObservationKind == "FinishObservation" {
		s.infer(i, ev.Time, model.StatusFinished)
		return
	}
	s.resume(i, ev)
}

// applyReject handles a UserRejectObservation: the action is settled
// without running; a user rejection leaves the conversation idle.
func (s *State) applyReject(i int, ev model.Event, r *model.UserReject) {
	s.history++
	s.settle(r.ActionID, "")
	s.closeQuestionOf(r.ActionID, "")
	if r.RejectionSource != "hook" && len(s.Pending) == 0 {
		s.infer(i, ev.Time, model.StatusIdle)
	}
}

// applyAgentError handles an AgentErrorEvent: it takes the place of the
// result of the action with the same tool_call_id.
func (s *State) applyAgentError(i int, ev model.Event, e *model.AgentError) {
	s.history++
	s.settle("", e.ToolCallID)
	s.closeQuestionOf("", e.ToolCallID)
	s.addError(i, ev.Kind, e.Error)
	s.resume(i, ev)
}

// resume infers running once no action awaits confirmation: a result
// arriving means the run goes on (an approval, when it was waiting).
func (s *State) resume(i int, ev model.Event) {
	if s.Status == model.StatusRunning {
		return
	}
	if s.Status == model.StatusWaitingForConfirmation && len(s.Pending) > 0 {
		// The run loop stopped for approval: what is still pending waits.
		return
	}
	s.infer(i, ev.Time, model.StatusRunning)
}

// settle removes the pending action with this id (or, when actionID is
// empty, this tool call id), and drops a tentative plan it proposed.
func (s *State) settle(actionID, toolCallID string) {
	// Results follow their actions closely: search from the newest.
	for k := len(s.Pending) - 1; k >= 0; k-- {
		p := s.Pending[k]
		if (actionID != "" && p.ID == actionID) || (actionID == "" && toolCallID != "" && p.ToolCallID == toolCallID) {
			if p.ID == s.tentativeID {
				s.Tasks.Tentative = nil
				s.Tasks.TentativeAt = -1
				s.tentativeID = ""
			}
			s.Pending = removePending(s.Pending, k)
			return
		}
	}
}

// addError records one error.
func (s *State) addError(i int, kind, text string) {
	ownAll(&kind, &text)
	s.errors = s.errors.push(ErrorRef{Index: i, Kind: kind, Text: text})
	s.ErrorCount++
}

// appendPending returns a new slice: the old one may be shared by other
// States, so it is never appended to in place. Copying is cheap because
// results follow their actions closely: pending holds a handful of
// actions (one LLM response's parallel calls), not a share of the log.
func appendPending(ps []PendingAction, p PendingAction) []PendingAction {
	out := make([]PendingAction, len(ps)+1)
	copy(out, ps)
	out[len(ps)] = p
	return out
}

// removePending returns a new slice without ps[k].
func removePending(ps []PendingAction, k int) []PendingAction {
	if len(ps) == 1 {
		return nil
	}
	out := make([]PendingAction, 0, len(ps)-1)
	out = append(out, ps[:k]...)
	return append(out, ps[k+1:]...)
}

// taskItems converts the model's task list, its strings copied (own.go).
func taskItems(ts []model.Task) []TaskItem {
	if ts == nil {
		return []TaskItem{}
	}
	out := make([]TaskItem, len(ts))
	for k, t := range ts {
		out[k] = TaskItem{Title: t.Title, Notes: t.Notes, Status: t.Status}
		ownAll(&out[k].Title, &out[k].Notes, &out[k].Status)
	}
	return out
}

// applyCondensation marks the forgotten events; they stay in the log.
func (s *State) applyCondensation(c *model.Condensation) {
	s.forgotten = s.forgotten.forget(c.ForgottenIDs)
}
