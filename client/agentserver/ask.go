package agentserver

import (
	"context"

	"ohwatch/model"
)

// askResponse is the body of POST .../events/respond_to_ask_user: upstream's
// LocalConversation.respond_to_ask_user(request_id, action, answers) over
// the route beside respond_to_confirmation (newer than SDK 1.43.1).
type askResponse struct {
	RequestID string                          `json:"request_id"`
	Action    string                          `json:"action"`
	Answers   map[string][]model.AnswerChoice `json:"answers"`
}

// AnswerQuestion answers the open ask_user request requestID: action is
// model.AskAccept with answers (question id to selections; a free-form
// question's text as a selection's label), or AskDecline / AskCancel. The
// answer names its request, and the server refuses one for a request no
// longer open, so it can never land on another question; it is not sent at
// all unless the conversation still waits (a *NotWaitingError). A server
// without the route (1.43.1 and older) gives an error satisfying
// errors.Is(err, ErrControlUnsupported); a refusal is a *ControlError with
// the server's reason.
func (c *Client) AnswerQuestion(ctx context.Context, id, requestID, action string, answers map[string][]model.AnswerChoice) error {
	if requestID == "" {
		return &NotWaitingError{Reason: "no open question was named"}
	}
	info, err := c.Conversation(ctx, id)
	if err != nil {
		return err
	}
	if info.ExecutionStatus != model.StatusWaitingForConfirmation {
		return &NotWaitingError{Reason: "the conversation is " + model.StatusWords(info.ExecutionStatus) + ", no longer waiting for an answer"}
	}
	if action != model.AskAccept || answers == nil {
		answers = map[string][]model.AnswerChoice{}
	}
	return c.control(ctx, id, "answer", "/events/respond_to_ask_user", askResponse{RequestID: requestID, Action: action, Answers: answers})
}
