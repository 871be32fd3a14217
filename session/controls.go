package session

import (
	"context"
	"errors"

	"ohwatch/client/agentserver"
	"ohwatch/model"
	convui "ohwatch/tui/conversation"
)

// The controls of a live agent-server conversation (pause, resume,
// interrupt, a message, the confirmation policy), as the TUI's Steering
// and the guards use them: confirmer, bound to one conversation, is the
// Controls every live session hands the TUI.

// Pause implements conversationControls.
func (cf confirmer) Pause(ctx context.Context) error { return cf.c.Pause(ctx, cf.id) }

// Interrupt implements conversationControls; a server without the route
// gives an error that is both agentserver.ErrControlUnsupported and
// convui.ErrUnsupported.
func (cf confirmer) Interrupt(ctx context.Context) error {
	err := cf.c.Interrupt(ctx, cf.id)
	if errors.Is(err, agentserver.ErrControlUnsupported) {
		return noControl{err}
	}
	return err
}

// noControl is a control the server lacks, as both the client and the
// TUI name it.
type noControl struct{ err error }

func (u noControl) Error() string        { return u.err.Error() }
func (u noControl) Unwrap() error        { return u.err }
func (u noControl) Is(target error) bool { return target == convui.ErrUnsupported }

// Message implements conversationControls.
func (cf confirmer) Message(ctx context.Context, text string, run bool) error {
	return cf.c.PostMessage(ctx, cf.id, text, run)
}

// MessageEffect implements convui.MessageEffects: what a message does to the
// pending actions on this server, decided from its /server_info version.
func (cf confirmer) MessageEffect(ctx context.Context) (convui.MessageEffect, string) {
	e, version := cf.c.MessageEffect(ctx)
	switch e {
	case agentserver.MessageEffectApproves:
		return convui.MessageEffectApproves, version
	case agentserver.MessageEffectRejects:
		return convui.MessageEffectRejects, version
	}
	return convui.MessageEffectUnknown, version
}

// Policy implements conversationControls: policy is never, always, risky
// or risky:LOW|MEDIUM|HIGH; it returns the policy as set.
func (cf confirmer) Policy(ctx context.Context, policy string) (string, error) {
	p, err := agentserver.ParsePolicy(policy)
	if err != nil {
		return "", err
	}
	return p.String(), cf.c.SetConfirmationPolicy(ctx, cf.id, p)
}

// steer gives the fleet table the controls of a conversation, bound to
// it: one of an agent-server through that server (with its session key),
// one of Cloud through its sandbox's agent-server; a local one has none.
func (fl *Fleet) steer(o FleetOptions, env *Env) func(model.ConversationRef) convui.Steering {
	return func(ref model.ConversationRef) convui.Steering {
		if ref.Kind != model.SourceServer {
			if s, ok := fl.steers[model.ConversationRef{Source: ref.Source, Kind: ref.Kind}]; ok {
				return s(ref.ID)
			}
			return nil
		}
		key, err := keyFor(o.KeyFiles, ref.Source, env)
		if err != nil {
			return nil
		}
		c, err := agentserver.New(ref.Source, key)
		if err != nil {
			return nil
		}
		return confirmer{c: c, id: ref.ID}
	}
}
