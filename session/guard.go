package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/guard"
	"ohwatch/headless"
	"ohwatch/model"
	convui "ohwatch/tui/conversation"
)

// guardSet is a fresh Set of rules for one conversation; nil without
// rules. Each conversation gets its own: a Set remembers what tripped.
func guardSet(rules []guard.Rule) *guard.Set {
	if len(rules) == 0 {
		return nil
	}
	return guard.New(rules)
}

// conversationControls are the controls of a live conversation, as the
// agent-server client offers them for one conversation.
type conversationControls interface {
	Pause(ctx context.Context) error
	Run(ctx context.Context) error
	Interrupt(ctx context.Context) error
	Message(ctx context.Context, text string, run bool) error
	Policy(ctx context.Context, policy string) (string, error)
}

// guardAct is what a tripped guard does to a live conversation through
// its controls; nil when it has none (a recording: a dry run).
func guardAct(c convui.Controls) headless.Act {
	ctl, ok := c.(conversationControls)
	if !ok {
		return nil
	}
	return func(ctx context.Context, a guard.Action) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, controlTimeout)
		defer cancel()
		return stopRun(ctx, ctl, a)
	}
}

// controlTimeout bounds one control request.
const controlTimeout = 15 * time.Second

// stopRun pauses or interrupts the conversation and says what the server
// did. An interrupt on a server without the route falls back to a pause,
// and says so.
func stopRun(ctx context.Context, ctl conversationControls, a guard.Action) (string, error) {
	if a == guard.Interrupt {
		err := ctl.Interrupt(ctx)
		switch {
		case err == nil:
			return "interrupt accepted by the server", nil
		case !errors.Is(err, agentserver.ErrControlUnsupported):
			return "", err
		}
		if err := ctl.Pause(ctx); err != nil {
			return "", fmt.Errorf("this server has no /interrupt, and the pause sent instead failed: %w", err)
		}
		return "this server has no /interrupt (404): pause sent instead and accepted", nil
	}
	if err := ctl.Pause(ctx); err != nil {
		return "", err
	}
	return "pause accepted by the server", nil
}

// guardAct stops a fleet's conversation for a tripped guard: one of an
// agent-server through that server (with its session key), one of Cloud
// through its sandbox's agent-server (not while its sandbox is paused); a
// local one is not stopped (it has no server).
func (fl *Fleet) guardAct(o FleetOptions, env *Env) headless.FleetAct {
	return func(ctx context.Context, ref model.ConversationRef, a guard.Action) (string, error) {
		if ref.Kind == model.SourceLocal {
			return "", errors.New("not sent: a local conversation has no server to pause it")
		}
		if ref.Kind == model.SourceCloud {
			steer, ok := fl.steers[model.ConversationRef{Source: ref.Source, Kind: ref.Kind}]
			if !ok {
				return "", errors.New("not sent: this fleet has no controls for Cloud")
			}
			ctx, cancel := context.WithTimeout(ctx, controlTimeout)
			defer cancel()
			return stopRun(ctx, steer(ref.ID), a)
		}
		key, err := keyFor(o.KeyFiles, ref.Source, env)
		if err != nil {
			return "", err
		}
		c, err := agentserver.New(ref.Source, key)
		if err != nil {
			return "", err
		}
		ctx, cancel := context.WithTimeout(ctx, controlTimeout)
		defer cancel()
		return stopRun(ctx, confirmer{c: c, id: ref.ID}, a)
	}
}
