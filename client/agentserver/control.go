package agentserver

import "context"

// confirmationResponse is the body of POST .../respond_to_confirmation.
type confirmationResponse struct {
	Accept bool   `json:"accept"`
	Reason string `json:"reason"`
}

// defaultRejectReason is the server's own default text for a rejection.
const defaultRejectReason = "User rejected the action."

// RespondToConfirmation accepts or rejects the actions waiting for
// confirmation. Accepting resumes the run; rejecting emits one
// UserRejectObservation per pending action (protocol §9.3). An empty
// reason uses the server's default text.
func (c *Client) RespondToConfirmation(ctx context.Context, id string, accept bool, reason string) error {
	if reason == "" {
		reason = defaultRejectReason
	}
	return c.postJSON(ctx, conversationRoute(id, "/events/respond_to_confirmation"),
		confirmationResponse{Accept: accept, Reason: reason}, nil)
}

// Pause asks the agent to pause; it takes effect after the current LLM call.
func (c *Client) Pause(ctx context.Context, id string) error {
	return c.control(ctx, id, "pause", "/pause", nil)
}

// Run starts or resumes the agent loop. A conversation that is already
// running gives an error satisfying errors.Is(err, ErrConflict).
func (c *Client) Run(ctx context.Context, id string) error {
	return c.control(ctx, id, "run", "/run", nil)
}

// Interrupt cancels the in-flight LLM call; the status becomes paused and
// an InterruptEvent follows. A server without the route gives an error
// satisfying errors.Is(err, ErrControlUnsupported).
func (c *Client) Interrupt(ctx context.Context, id string) error {
	return c.control(ctx, id, "interrupt", "/interrupt", nil)
}
