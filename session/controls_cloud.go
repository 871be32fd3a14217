package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/client/fleetsource"
	"ohwatch/internal/redact"
	"ohwatch/internal/sanitize"
	convui "ohwatch/tui/conversation"
)

// cloudControls are the controls of one Cloud conversation on the fleet
// table. Its agent-server sits in its sandbox: each control asks Cloud
// (as the fleet's listing last saw it) where that server is and with which
// session key, then goes to it as a live view's controls do. A sandbox
// that does not run takes none: nothing is sent, and nothing resumes it.
type cloudControls struct {
	src     *fleetsource.CloudSource
	sess    *cloud.Session
	id      string
	secrets *redact.Secrets
	logger  *slog.Logger
}

// cloudSteer gives the fleet table the controls of a conversation of the
// Cloud source src, bound to its id.
func cloudSteer(src *fleetsource.CloudSource, sess *cloud.Session, secrets *redact.Secrets, logger *slog.Logger) func(id string) convui.Steering {
	return func(id string) convui.Steering {
		return cloudControls{src: src, sess: sess, id: id, secrets: secrets, logger: logger}
	}
}

// errSandboxPaused refuses a control on a conversation whose sandbox is
// paused: resuming it is the person's choice, made when opening it.
var errSandboxPaused = errors.New("its sandbox is paused: open it to resume")

// server is the conversation's controls on its sandbox's agent-server.
func (cc cloudControls) server(ctx context.Context) (confirmer, error) {
	conv, ok := cc.src.Conversation(cc.id)
	switch {
	case !ok:
		return confirmer{}, fmt.Errorf("%s is not in the Cloud listing", cc.id)
	case conv.Paused():
		return confirmer{}, errSandboxPaused
	case !conv.Running():
		return confirmer{}, fmt.Errorf("its sandbox is %s, not running", strings.ToLower(sanitize.Line(conv.SandboxStatus)))
	}
	target, err := cc.sess.Live(ctx, conv)
	if err != nil {
		return confirmer{}, errors.New(cc.sess.Redact(err.Error()))
	}
	cc.secrets.Add(target.SessionKey)
	c, err := agentserver.New(target.AgentServerURL, target.SessionKey, agentserver.WithLogger(cc.logger))
	if err != nil {
		return confirmer{}, errors.New(cc.sess.Redact(err.Error()))
	}
	return confirmer{c: c, id: target.ConversationID}, nil
}

// Pause implements convui.Steering.
func (cc cloudControls) Pause(ctx context.Context) error {
	s, err := cc.server(ctx)
	if err != nil {
		return err
	}
	return s.Pause(ctx)
}

// Run implements convui.Steering.
func (cc cloudControls) Run(ctx context.Context) error {
	s, err := cc.server(ctx)
	if err != nil {
		return err
	}
	return s.Run(ctx)
}

// RunWaiting implements convui.RunWaiter: a resume on the sandbox's
// agent-server, which delivers its events to Cloud before it ends a
// paused run (controls_resume.go).
func (cc cloudControls) RunWaiting(ctx context.Context, say func(string)) error {
	s, err := cc.server(ctx)
	if err != nil {
		return err
	}
	return s.RunWaiting(ctx, say)
}

// Interrupt implements convui.Steering.
func (cc cloudControls) Interrupt(ctx context.Context) error {
	s, err := cc.server(ctx)
	if err != nil {
		return err
	}
	return s.Interrupt(ctx)
}

// Message implements convui.Steering.
func (cc cloudControls) Message(ctx context.Context, text string, run bool) error {
	s, err := cc.server(ctx)
	if err != nil {
		return err
	}
	return s.Message(ctx, text, run)
}

// Policy implements convui.Steering.
func (cc cloudControls) Policy(ctx context.Context, policy string) (string, error) {
	s, err := cc.server(ctx)
	if err != nil {
		return "", err
	}
	return s.Policy(ctx, policy)
}
