package reducer

import (
	"time"

	"ohwatch/model"
)

// Question is an ask_user request no answer has closed yet: the agent paused
// the run to ask the user (upstream sdk/agent/response_dispatch.py sets
// waiting_for_confirmation while it is open). It needs the person exactly as
// a pending confirmation does, but is answered with choices, not approval.
type Question struct {
	Index int // the AskUserRequestEvent's index
	// At is the request's time, zero when not stamped.
	At time.Time
	// Request is the decoded request; shared, never modified.
	Request *model.AskUserRequest
}

// RequestID is the id an answer must name.
func (q *Question) RequestID() string { return q.Request.RequestID }

// Warning is one WarningEvent or ConversationIterationLimitEvent.
type Warning struct {
	Index int
	Kind  string
	Text  string
}

// applyAskRequest opens a question. Upstream keeps one open at a time (a
// second is refused with an observation before it is asked), so a new one
// replaces any other.
func (s *State) applyAskRequest(i int, ev model.Event, b *model.AskUserRequest) {
	s.Question = &Question{Index: i, At: ev.Time, Request: b}
	s.infer(i, ev.Time, model.StatusWaitingForConfirmation)
}

// applyAskResponse closes the question it answers; an answer to another
// request changes nothing. The run resumes with the answer as the ask_user
// action's result.
func (s *State) applyAskResponse(i int, ev model.Event, b *model.AskUserResponse) {
	if s.Question == nil || s.Question.Request.RequestID != b.RequestID {
		return
	}
	s.Question = nil
	s.infer(i, ev.Time, model.StatusRunning)
}

// closeQuestionOf drops the open question when the action it resolves got
// its result some other way (a rejection, an error).
func (s *State) closeQuestionOf(actionID, toolCallID string) {
	q := s.Question
	if q == nil {
		return
	}
	if (actionID != "" && q.Request.ActionID == actionID) || (actionID == "" && toolCallID != "" && q.Request.ToolCallID == toolCallID) {
		s.Question = nil
	}
}

// applyAnalysis puts the analyzer's verdict on the pending actions it names.
func (s *State) applyAnalysis(b *model.SecurityAnalysis) {
	var out []PendingAction
	for k, p := range s.Pending {
		risk := b.RiskOf(p.ID)
		if risk == "" {
			continue
		}
		if out == nil {
			out = append([]PendingAction(nil), s.Pending...)
		}
		out[k].AnalyzerRisk, out[k].Analyzer = own(risk), own(b.Analyzer)
	}
	if out != nil {
		s.Pending = out
	}
}

// addWarning records one warning.
func (s *State) addWarning(i int, kind, text string) {
	ownAll(&kind, &text)
	s.warnings = s.warnings.push(Warning{Index: i, Kind: kind, Text: text})
	s.WarningCount++
}

// Warnings returns every warning so far, oldest first.
func (s State) Warnings() []Warning { return s.warnings.slice() }

// warnNode is a persistent list of warnings, newest first.
type warnNode struct {
	w    Warning
	next *warnNode
}

func (n *warnNode) push(w Warning) *warnNode { return &warnNode{w: w, next: n} }

func (n *warnNode) slice() []Warning {
	var out []Warning
	for ; n != nil; n = n.next {
		out = append(out, n.w)
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}
