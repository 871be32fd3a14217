package serve

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"ohwatch/model"
)

// The ask_user pause (upstream openhands-sdk sdk/agent/response_dispatch.py
// and event/ask_user.py, newer than SDK 1.43.1): the agent's ask_user call
// emits an AskUserRequestEvent and the run waits at waiting_for_confirmation
// until an AskUserResponseEvent with the request's id arrives. The
// agent-server takes the answer at POST
// /api/conversations/{id}/events/respond_to_ask_user, shaped after
// respond_to_confirmation beside it and LocalConversation.respond_to_ask_user
// (request_id, action, answers). serve holds there as it holds a
// confirmation (Options.ConfirmHold); an answer replaces the recorded one.

// askAnswer is a respond_to_ask_user request.
type askAnswer struct {
	RequestID string                          `json:"request_id"`
	Action    string                          `json:"action"`
	Answers   map[string][]model.AnswerChoice `json:"answers"`
}

// Refusals of an answer, worded as upstream's ValueError and
// AskUserRequestError are.
var (
	errNoQuestion = errors.New("no pending ask_user request")
	errStaleAsk   = errors.New("request_id does not match the pending ask_user request")
)

// answerError is an answer that names an unknown question or option.
type answerError struct{ msg string }

func (e answerError) Error() string { return e.msg }

// validate checks an answer against the request it answers, as upstream's
// validate_ask_user_answers does: known question ids, options of the
// question (any text for a free-form one), one selection unless
// multi_select.
func (a *askAnswer) validate(req *model.AskUserRequest) error {
	switch a.Action {
	case model.AskAccept, model.AskDecline, model.AskCancel:
	default:
		return answerError{fmt.Sprintf("action %q is not accept, decline or cancel", a.Action)}
	}
	if a.Action != model.AskAccept {
		a.Answers = nil // answers are carried for accept only
		return nil
	}
	for qid, sel := range a.Answers {
		var q *model.Question
		for k := range req.Questions {
			if req.Questions[k].ID == qid {
				q = &req.Questions[k]
			}
		}
		if q == nil {
			return answerError{fmt.Sprintf("Unknown question id '%s'.", qid)}
		}
		if !q.MultiSelect && len(sel) > 1 {
			return answerError{fmt.Sprintf("Question '%s' does not allow multiple selections.", qid)}
		}
		if len(q.Options) == 0 {
			continue
		}
		for _, s := range sel {
			known := false
			for _, o := range q.Options {
				known = known || o.ID == s.OptionID
			}
			if !known {
				return answerError{fmt.Sprintf("Unknown option id '%s' for question '%s'.", s.OptionID, qid)}
			}
		}
	}
	return nil
}

// answer handles POST respond_to_ask_user: refused unless it names the open
// request and fits it; while the replay holds at the question it releases
// the hold, otherwise it is applied at once.
func (c *conversation) answer(a askAnswer) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.state.Question
	if q == nil {
		return errNoQuestion
	}
	if q.RequestID() != a.RequestID {
		return errStaleAsk
	}
	if err := a.validate(q.Request); err != nil {
		return err
	}
	if c.holding {
		select {
		case c.decisions <- decision{answer: &a}:
		default: // a decision is already on its way
		}
		return nil
	}
	c.answerLocked(a)
	return nil
}

// answerLocked emits what the agent-server does with an answer: the
// AskUserResponseEvent, the ask_user action's observation built from it,
// and the run going on. The recording's own answer and observation are
// passed over.
func (c *conversation) answerLocked(a askAnswer) {
	q := c.state.Question
	if q == nil || q.RequestID() != a.RequestID {
		return // answered meanwhile
	}
	req := q.Request
	now := c.nowLocked()
	c.emitNewLocked(askResponseJSON(now, a))
	c.rejected["ask:"+a.RequestID] = true
	c.rejected[req.ActionID] = true
	c.emitNewLocked(askObservationJSON(now, req, a))
	c.sendStatusLocked(model.StatusRunning)
}

// askSkipped reports whether a recorded event is the recording's own answer
// to a request a client answered.
func (c *conversation) askSkipped(ev model.Event) bool {
	b, ok := ev.Body.(*model.AskUserResponse)
	return ok && c.rejected["ask:"+b.RequestID]
}

// askWaitLocked sends waiting_for_confirmation after a question, which
// always pauses the run whatever the confirmation policy (upstream sets the
// status itself), for a recording that carries no status updates.
func (c *conversation) askWaitLocked(ev model.Event) {
	if _, ok := ev.Body.(*model.AskUserRequest); ok && !c.statusEvents && c.sentStatus != model.StatusWaitingForConfirmation {
		c.derived = model.StatusWaitingForConfirmation
		c.sendStatusLocked(model.StatusWaitingForConfirmation)
	}
}

// askResponseJSON builds the AskUserResponseEvent of an answer.
func askResponseJSON(at time.Time, a askAnswer) []byte {
	answers := a.Answers
	if answers == nil {
		answers = map[string][]model.AnswerChoice{}
	}
	return mustJSON(struct {
		eventHeader
		RequestID string                          `json:"request_id"`
		Action    string                          `json:"action"`
		Answers   map[string][]model.AnswerChoice `json:"answers"`
		Kind      string                          `json:"kind"`
	}{header(at, "user"), a.RequestID, a.Action, answers, model.KindAskUserResponse})
}

// askObservationJSON builds the ObservationEvent that resolves the ask_user
// action, with the message upstream's build_ask_user_observation writes.
func askObservationJSON(at time.Time, req *model.AskUserRequest, a askAnswer) []byte {
	msg := askMessage(req, a)
	type text struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	obs := struct {
		Content    []text                          `json:"content"`
		IsError    bool                            `json:"is_error"`
		Resolution string                          `json:"resolution"`
		Answers    map[string][]model.AnswerChoice `json:"answers"`
		Message    string                          `json:"message"`
		Kind       string                          `json:"kind"`
	}{[]text{{"text", msg}}, false, a.Action, a.Answers, msg, "AskUserObservation"}
	if obs.Answers == nil {
		obs.Answers = map[string][]model.AnswerChoice{}
	}
	toolName := req.ToolName
	if toolName == "" {
		toolName = "ask_user"
	}
	return mustJSON(struct {
		eventHeader
		ToolName    string `json:"tool_name"`
		ToolCallID  string `json:"tool_call_id"`
		Observation any    `json:"observation"`
		ActionID    string `json:"action_id"`
		Kind        string `json:"kind"`
	}{header(at, "environment"), toolName, req.ToolCallID, obs, req.ActionID, model.KindObservation})
}

// askMessage is the observation's text for an answer.
func askMessage(req *model.AskUserRequest, a askAnswer) string {
	switch a.Action {
	case model.AskDecline:
		return "User declined to answer the question(s)."
	case model.AskCancel:
		return "The question was dismissed (cancelled). Proceed using your best judgement or try a different approach."
	}
	var lines []string
	for _, q := range req.Questions {
		sel := a.Answers[q.ID]
		if len(sel) == 0 {
			continue
		}
		labels := make([]string, len(sel))
		for k, s := range sel {
			labels[k] = s.Label
		}
		lines = append(lines, "- "+q.Text+" -> "+strings.Join(labels, ", "))
	}
	if len(lines) == 0 {
		return "User accepted without selecting an option."
	}
	return "User answered:\n" + strings.Join(lines, "\n")
}
