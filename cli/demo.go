package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"ohwatch/demo"
	"ohwatch/model"
	"ohwatch/serve"
	"ohwatch/session"
)

func newDemo(env *session.Env) *cobra.Command {
	var vf viewFlags
	var speed float64
	var fleet bool
	cmd := &cobra.Command{
		Use:   "demo [--fleet] [--speed X] [--headless] [--json]",
		Short: "replay the built-in demo conversation live, over a real WebSocket",
		RunE: func(cmd *cobra.Command, p []string) error {
			if speed <= 0 {
				return usageErr(fmt.Sprintf("--speed must be more than 0, not %g", speed), "--speed 10 plays ten times faster")
			}
			if err := noArgs(p, "the demo takes no arguments: ohwatch demo [--speed X]"); err != nil {
				return err
			}
			o, err := vf.options(env, nil)
			if err != nil {
				return err
			}
			logger, closeLog, err := session.OpenLog(vf.logFile, nil)
			if err != nil {
				fmt.Fprintf(env.Stderr, "ohwatch demo: %v\n", err)
				return exitCode(exitUsage)
			}
			defer closeLog()
			ctx, stop := session.Interruptible()
			defer stop()
			if fleet {
				return exit(runDemoFleet(ctx, env, o, logger, speed))
			}
			return exit(runDemo(ctx, env, o, logger, speed))
		},
	}
	vf.bind(cmd.Flags())
	cmd.Flags().Float64Var(&speed, "speed", 1, "replay pace: 1 is the recorded pace (about two minutes), 10 ten times faster")
	cmd.Flags().BoolVar(&fleet, "fleet", false, "a fleet instead: the story and generated conversations (one waits for confirmation, one errors, one gets stuck) in the fleet table; headless, until every one has ended")
	return cmd
}

// runDemo serves the bundled conversation through the real agent-server
// protocol and watches it as `ohwatch watch` does.
func runDemo(ctx context.Context, env *session.Env, o session.Options, logger *slog.Logger, speed float64) int {
	base, events, err := demoConversation()
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch demo: %v\n", err)
		return 1
	}
	// A random key on a random loopback port: the demo's server is as
	// closed to the rest of the machine as a real one would be.
	key := randomKey()
	srv := serve.New(serve.Options{
		Key:                key,
		Speed:              speed,
		Logger:             logger,
		ConfirmHold:        demoHold(o.Headless, speed),
		OnHoldPassed:       demoHoldPassed(env),
		FinishConfirmDelay: time.Duration(float64(1500*time.Millisecond) / speed),
		Continue:           generatedContinuation,
	})
	srv.Add(base.ID, base, events)
	url, ok := startDemoServer(ctx, env, srv, func(srv *serve.Server) error { return addRejectBranch(srv, base.ID) })
	if !ok {
		return 1
	}
	defer srv.Close()
	return session.Watch(ctx, env, o, logger, url, base.ID, key, demoTitle(base, events))
}

// startDemoServer gives srv its conversations with add and starts it on a
// random loopback port; on failure it has said why.
func startDemoServer(ctx context.Context, env *session.Env, srv *serve.Server, add func(*serve.Server) error) (string, bool) {
	if err := add(srv); err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch demo: %v\n", err)
		return "", false
	}
	url, err := srv.Start(ctx, "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch demo: %v\n", err)
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
