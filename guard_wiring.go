package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/guard"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/tui"
)

// guardUsage is --guard's help text.
const guardUsage = "a `RULE` that acts when the conversation passes a limit (repeatable): " + guard.Usage +
	"; a pause or interrupt guard ends a headless watch with exit 8 once the server confirms the pause; on a recording it is a dry run"

// guardFlag collects repeated --guard rules, each checked as it is given,
// so a bad rule is a usage error (exit 2) naming it on one line.
type guardFlag struct {
	rules []guard.Rule
}

func (g *guardFlag) String() string {
	if g == nil {
		return ""
	}
	texts := make([]string, len(g.rules))
	for i, r := range g.rules {
		texts[i] = r.Text
	}
	return strings.Join(texts, " ")
}

func (g *guardFlag) Set(s string) error {
	r, err := guard.Parse(s)
	if err != nil {
		return err
	}
	g.rules = append(g.rules, r)
	return nil
}

// set is a fresh Set of the rules for one conversation; nil without rules.
func (g *guardFlag) set() *guard.Set {
	if len(g.rules) == 0 {
		return nil
	}
	return guard.New(g.rules)
}

// into gives a conversation view a fresh Set of the rules.
func (g *guardFlag) into(o tui.Options) tui.Options {
	o.Guards = g.set()
	return o
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
func guardAct(c tui.Controls) headless.Act {
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

// fleetGuardAct stops a fleet's conversation for a tripped guard: one of
// an agent-server through that server (with its session key); a Cloud or
// local one is not stopped from the fleet (a Cloud conversation's server
// sits in its sandbox: open it; a local one has none).
func fleetGuardAct(cfg *fleetConfig, env *environment) headless.FleetAct {
	return func(ctx context.Context, ref model.ConversationRef, a guard.Action) (string, error) {
		switch ref.Kind {
		case model.SourceCloud:
			return "", errors.New("not sent: a Cloud conversation is paused from its own view (open it), not from the fleet")
		case model.SourceLocal:
			return "", errors.New("not sent: a local conversation has no server to pause it")
		}
		key, err := cfg.keys.keyFor(ref.Source, env)
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
