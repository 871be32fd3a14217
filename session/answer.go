package session

import (
	"context"
	"errors"
	"fmt"

	"ohwatch/client/agentserver"
	"ohwatch/model"
	convui "ohwatch/tui/conversation"
)

// Answer implements convui.Answerer: the answer to the agent's ask_user
// question names its request, which the server answers only while it is
// open, and goes out only while the conversation still waits.
func (cf confirmer) Answer(ctx context.Context, requestID, action string, answers map[string][]model.AnswerChoice) error {
	err := cf.c.AnswerQuestion(ctx, cf.id, requestID, action, answers)
	var nw *agentserver.NotWaitingError
	switch {
	case errors.As(err, &nw):
		return fmt.Errorf("%w: %s", convui.ErrNotSent, nw.Reason)
	case errors.Is(err, agentserver.ErrControlUnsupported):
		return fmt.Errorf("%w: %w", convui.ErrUnsupported, err)
	}
	return err
}
