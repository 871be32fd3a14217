package agentserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// ErrControlUnsupported means the server has no route for a control while
// the conversation exists: it is older than the control (an agent-server
// before /interrupt, for one). errors.As gives the *ControlError.
var ErrControlUnsupported = errors.New("control not supported by this agent-server")

// ControlError is a control (pause, run, interrupt, message, policy) the
// server refused, worded on one line for a footer or a headless line: what
// was asked, the status, and the server's own reason when it gave one.
type ControlError struct {
	Op     string // "pause", "run", "interrupt", "message", "confirmation policy"
	Status int
	Detail string // the server's {"detail": ...}, sanitised; "" when none
	// Unsupported is a 404 for a conversation that exists: the route is
	// missing.
	Unsupported bool
}

// Error implements error.
func (e *ControlError) Error() string {
	switch {
	case e.Unsupported:
		return fmt.Sprintf("%s: this agent-server has no such control (404 for a conversation it has)", e.Op)
	case e.Status == http.StatusNotFound:
		return fmt.Sprintf("%s: the server has no such conversation (404)", e.Op)
	}
	msg := fmt.Sprintf("%s refused by the server (%d %s)", e.Op, e.Status, http.StatusText(e.Status))
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Is makes errors.Is hold for ErrControlUnsupported, ErrNotFound and
// ErrConflict by the status.
func (e *ControlError) Is(target error) bool {
	switch target {
	case ErrControlUnsupported:
		return e.Unsupported
	case ErrNotFound:
		return e.Status == http.StatusNotFound && !e.Unsupported
	case ErrConflict:
		return e.Status == http.StatusConflict
	case ErrAuth:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	}
	return false
}

// control posts a control's body and words a refusal as a *ControlError;
// a transport failure stays as it is (ErrConnect).
func (c *Client) control(ctx context.Context, id, op, suffix string, body any) error {
	err := c.postJSON(ctx, conversationRoute(id, suffix), body, nil)
	var he *HTTPError
	if err == nil || !errors.As(err, &he) {
		return err
	}
	ce := &ControlError{Op: op, Status: he.Status, Detail: detailOf(he.Body)}
	if he.Status == http.StatusNotFound {
		if _, infoErr := c.Conversation(ctx, id); infoErr == nil {
			ce.Unsupported = true
		}
	}
	return ce
}

// detailOf is FastAPI's {"detail": "..."} of an error body, or the body
// itself when it is not that shape. A validation error's list of details
// is shortened to its first message.
func detailOf(body string) string {
	var d struct {
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal([]byte(body), &d) != nil || len(d.Detail) == 0 {
		return body
	}
	var s string
	if json.Unmarshal(d.Detail, &s) == nil {
		return sanitize.Line(s)
	}
	var list []struct {
		Msg string `json:"msg"`
	}
	if json.Unmarshal(d.Detail, &list) == nil && len(list) > 0 {
		return sanitize.Line(list[0].Msg)
	}
	return body
}

// PostMessage appends text as a user message to conversation id. With run
// the agent starts or goes on at once; without, the message only joins the
// log (the server's default) until /run. Beware (protocol §5): a message
// sent while the conversation waits for confirmation approves the pending
// actions.
func (c *Client) PostMessage(ctx context.Context, id, text string, run bool) error {
	body := model.NewUserMessage(text)
	body.Run = run
	return c.control(ctx, id, "message", "/events", body)
}

// Policy is a confirmation policy as the agent-server takes it:
// {"kind":"NeverConfirm"}, {"kind":"AlwaysConfirm"} or
// {"kind":"ConfirmRisky","threshold":"HIGH","confirm_unknown":true}.
type Policy struct {
	Kind           string `json:"kind"`
	Threshold      string `json:"threshold,omitempty"`
	ConfirmUnknown *bool  `json:"confirm_unknown,omitempty"`
}

// The confirmation policy kinds (protocol §5).
const (
	PolicyNever  = "NeverConfirm"
	PolicyAlways = "AlwaysConfirm"
	PolicyRisky  = "ConfirmRisky"
)

// ParsePolicy reads a policy as a person writes it: never, always, risky
// (HIGH and above, and unknown risks), or risky:LOW|MEDIUM|HIGH.
func ParsePolicy(s string) (Policy, error) {
	name, threshold, hasThreshold := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
	switch name {
	case "never":
		if !hasThreshold {
			return Policy{Kind: PolicyNever}, nil
		}
	case "always":
		if !hasThreshold {
			return Policy{Kind: PolicyAlways}, nil
		}
	case "risky":
		t := "HIGH"
		if hasThreshold {
			t = strings.ToUpper(threshold)
		}
		switch t {
		case "LOW", "MEDIUM", "HIGH":
			yes := true
			return Policy{Kind: PolicyRisky, Threshold: t, ConfirmUnknown: &yes}, nil
		}
		return Policy{}, fmt.Errorf("policy %q: the risk threshold is LOW, MEDIUM or HIGH", s)
	}
	return Policy{}, fmt.Errorf("policy %q: never, always, risky or risky:LOW|MEDIUM|HIGH", s)
}

// String is the policy as ParsePolicy reads it.
func (p Policy) String() string {
	switch p.Kind {
	case PolicyNever:
		return "never"
	case PolicyAlways:
		return "always"
	case PolicyRisky:
		if p.Threshold == "" {
			return "risky"
		}
		return "risky:" + p.Threshold
	}
	return p.Kind
}

// SetConfirmationPolicy changes which actions wait for confirmation; the
// server emits a confirmation_policy state update.
func (c *Client) SetConfirmationPolicy(ctx context.Context, id string, p Policy) error {
	return c.control(ctx, id, "confirmation policy", "/confirmation_policy", struct {
		Policy Policy `json:"policy"`
	}{p})
}
