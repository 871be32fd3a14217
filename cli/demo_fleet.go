package cli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/fleetsource"
	"ohwatch/gen"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/serve"
	"ohwatch/session"
)

// demoConv is one conversation of the demo's fleet.
type demoConv struct {
	id     string
	base   *model.BaseState
	events []model.Event
}

// The generated conversations of the demo's fleet, beside the bundled
// story (which waits for a confirmation): how each one ends.
var demoFleetEnds = []struct {
	events int
	seed   int64
	end    string
}{
	{events: 40, seed: 11, end: model.StatusFinished},
	{events: 34, seed: 12, end: model.StatusError},
	{events: 28, seed: 13, end: model.StatusStuck},
	{events: 160, seed: 14, end: model.StatusFinished},
}

// demoFleet is the fleet `ohwatch demo --fleet` serves: the bundled story,
// which stops to ask for a confirmation, and generated conversations that
// finish, end in an error (a spent budget) and get stuck.
func demoFleet() ([]demoConv, error) {
	base, events, err := demoConversation()
	if err != nil {
		return nil, err
	}
	convs := []demoConv{{id: base.ID, base: base, events: events}}
	for i, e := range demoFleetEnds {
		evs, err := generatedEnding(e.events, e.seed, e.end)
		if err != nil {
			return nil, err
		}
		convs = append(convs, demoConv{id: fmt.Sprintf("de30f1ee%024x", i+1), events: evs})
	}
	return convs, nil
}

// generatedEnding is a generated conversation of about n events that ends
// in status end: whatever status its first n events reached is replaced
// by that end (after a ConversationErrorEvent for an error), as the SDK
// reports it.
func generatedEnding(n int, seed int64, end string) ([]model.Event, error) {
	var evs []model.Event
	for raw := range gen.Events(gen.Options{Events: n, Seed: seed}) {
		ev, err := model.Decode(raw)
		if err != nil {
			return nil, fmt.Errorf("generated event %d: %w", len(evs), err)
		}
		evs = append(evs, ev)
	}
	for len(evs) > 0 && isStatusUpdate(evs[len(evs)-1]) {
		evs = evs[:len(evs)-1]
	}
	at := evs[len(evs)-1].Time.Add(2 * time.Second)
	var raws []string
	if end == model.StatusError {
		raws = append(raws, fmt.Sprintf(`{"id":%q,"timestamp":%q,"source":"environment","code":"MaxBudgetReached","detail":"the task's budget of $0.50 is spent","kind":"ConversationErrorEvent"}`,
			demoEventID(seed, 1), at.Format(sdkTime)))
	}
	raws = append(raws, fmt.Sprintf(`{"id":%q,"timestamp":%q,"source":"environment","key":"execution_status","value":%q,"kind":"ConversationStateUpdateEvent"}`,
		demoEventID(seed, 2), at.Add(10*time.Millisecond).Format(sdkTime), end))
	for _, raw := range raws {
		ev, err := model.Decode([]byte(raw))
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// sdkTime is the SDK's event timestamp (no zone, microseconds).
const sdkTime = "2006-01-02T15:04:05.000000"

// demoEventID is a uuid-shaped id for an event the demo adds.
func demoEventID(seed int64, n int) string {
	return fmt.Sprintf("de30f1ee-0000-4000-8000-%06d%06d", seed, n)
}

// isStatusUpdate reports whether ev sets the execution status.
func isStatusUpdate(ev model.Event) bool {
	su, ok := ev.Body.(*model.StateUpdate)
	return ok && !su.FullState && su.ExecutionStatus != ""
}

// serveDemoFleet adds the demo's fleet to srv, the story with its branch
// for a rejected force push.
func serveDemoFleet(srv *serve.Server) error {
	convs, err := demoFleet()
	if err != nil {
		return err
	}
	for _, c := range convs {
		srv.Add(c.id, c.base, c.events)
	}
	return addRejectBranch(srv, convs[0].id)
}

// runDemoFleet serves the demo's fleet through the real agent-server
// protocol and watches it as `ohwatch fleet URL` does: in the table, or
// headless until every conversation has ended. In the table the runs
// start one after another and loop, so the fleet keeps living.
func runDemoFleet(ctx context.Context, env *session.Env, o session.Options, logger *slog.Logger, speed float64) int {
	key := randomKey()
	srv := serve.New(serve.Options{
		Key:                key,
		Speed:              speed,
		Logger:             logger,
		ConfirmHold:        time.Duration(float64(time.Minute) / speed),
		FinishConfirmDelay: time.Duration(float64(1500*time.Millisecond) / speed),
		Stagger:            time.Duration(float64(2*time.Second) / speed),
		Loop:               !o.Headless,
	})
	url, ok := startDemoServer(ctx, env, srv, serveDemoFleet)
	if !ok {
		return 1
	}
	defer srv.Close()
	c, err := agentserver.New(url, key, agentserver.WithLogger(logger))
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch demo: %v\n", err)
		return 1
	}
	fl := session.NewFleet()
	fl.AddServer(c, fleetsource.ServerOptions{Interval: time.Second})
	return fl.Run(ctx, env, session.FleetOptions{Headless: o.Headless, JSON: o.JSON, Until: headless.UntilAll, Notify: o.Notify, Theme: o.Theme})
}
