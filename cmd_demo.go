package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"ohwatch/demo"
	"ohwatch/model"
	"ohwatch/serve"
)

func runDemo(args []string, env *environment) int {
	fs := newFlagSet("demo", "demo [--fleet] [--speed X] [--headless] [--json]", env.stderr)
	var vf viewFlags
	vf.bind(fs)
	speed := fs.Float64("speed", 1, "replay pace: 1 is the recorded pace (about two minutes), 10 ten times faster")
	fleet := fs.Bool("fleet", false, "a fleet instead: the story and generated conversations (one waits for confirmation, one errors, one gets stuck) in the fleet table; headless, until every one has ended")
	_, code, ok := checkCommand(fs, args, func(p []string) error {
		if *speed <= 0 {
			return usageErr(fmt.Sprintf("--speed must be more than 0, not %g", *speed), "--speed 10 plays ten times faster")
		}
		return noArgs(p, "the demo takes no arguments: ohwatch demo [--speed X]")
	})
	if !ok {
		return code
	}
	logger, closeLog, err := vf.logger()
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch demo: %v\n", err)
		return exitUsage
	}
	defer closeLog()
	ctx, stop := interruptible()
	defer stop()
	if *fleet {
		return runDemoFleet(ctx, env, &vf, logger, *speed)
	}

	base, events, err := demoConversation()
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch demo: %v\n", err)
		return 1
	}
	// A random key on a random loopback port: the demo's server is as
	// closed to the rest of the machine as a real one would be.
	key := randomKey()
	srv := serve.New(serve.Options{
		Key:                key,
		Speed:              *speed,
		Logger:             logger,
		ConfirmHold:        demoHold(&vf, env, *speed),
		OnHoldPassed:       demoHoldPassed(env),
		FinishConfirmDelay: time.Duration(float64(1500*time.Millisecond) / *speed),
		Continue:           generatedContinuation,
	})
	srv.Add(base.ID, base, events)
	url, ok := startDemoServer(ctx, env, srv, func(srv *serve.Server) error { return addRejectBranch(srv, base.ID) })
	if !ok {
		return 1
	}
	defer srv.Close()
	return watchAgentServer(ctx, env, &vf, logger, url, base.ID, key, demoTitle(base, events))
}

// startDemoServer gives srv its conversations with add and starts it on a
// random loopback port; on failure it has said why.
func startDemoServer(ctx context.Context, env *environment, srv *serve.Server, add func(*serve.Server) error) (string, bool) {
	if err := add(srv); err != nil {
		fmt.Fprintf(env.stderr, "ohwatch demo: %v\n", err)
		return "", false
	}
	url, err := srv.Start(ctx, "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch demo: %v\n", err)
		return "", false
	}
	return url, true
}

// demoConversation decodes the conversation bundled in the binary.
func demoConversation() (*model.BaseState, []model.Event, error) {
	rawBase, rawEvents := demo.Conversation()
	base, err := model.DecodeBaseState(rawBase)
	if err != nil {
		return nil, nil, fmt.Errorf("bundled base state: %w", err)
	}
	events, err := decodeBundled(rawEvents)
	if err != nil {
		return nil, nil, err
	}
	return base, events, nil
}

// addRejectBranch gives the served demo its branch for a rejected force
// push, so that rejecting it shows the agent stop without pushing.
func addRejectBranch(srv *serve.Server, id string) error {
	actionID, raws := demo.Rejected()
	events, err := decodeBundled(raws)
	if err != nil {
		return err
	}
	srv.OnReject(id, actionID, events)
	return nil
}

// decodeBundled decodes events bundled in the binary.
func decodeBundled(raws [][]byte) ([]model.Event, error) {
	events := make([]model.Event, 0, len(raws))
	for i, raw := range raws {
		ev, err := model.Decode(raw)
		if err != nil {
			return nil, fmt.Errorf("bundled event %d: %w", i, err)
		}
		events = append(events, ev)
	}
	return events, nil
}

// demoTitle names the demo in the header: its title, else its first user
// request.
func demoTitle(base *model.BaseState, events []model.Event) string {
	if base.Title != "" {
		return base.Title
	}
	for _, ev := range events {
		if m, ok := ev.Body.(*model.Message); ok && m.Role == "user" {
			return "demo · " + strings.TrimPrefix(ev.Summary, "user: ")
		}
	}
	return "demo"
}

func randomKey() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand: " + err.Error()) // never fails on supported platforms
	}
	return hex.EncodeToString(b)
}
