package headless

import (
	"context"
	"encoding/json"
	"fmt"

	"ohwatch/fleet"
	"ohwatch/format"
	"ohwatch/guard"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// FleetAct stops one conversation of a fleet for a tripped pause or
// interrupt guard and returns the server's answer in words; an error says
// why it was not done.
type FleetAct func(ctx context.Context, ref model.ConversationRef, action guard.Action) (string, error)

// fleetGuards are a fleet watch's guards.
type fleetGuards struct {
	judge *guard.Fleet
	// stopped are the conversations a guard stopped, until they run again
	// after pausing, with the guard that did.
	stopped map[model.ConversationRef]*guardStop
}

// guardStop is a run a guard stopped.
type guardStop struct {
	by     guard.Report
	paused bool // the pause has been seen
}

// fleetGuardLine is the JSON of a trip in a fleet.
type fleetGuardLine struct {
	Type       string  `json:"type"`
	Source     string  `json:"source"`
	SourceKind string  `json:"source_kind"`
	ID         string  `json:"id"`
	Rule       string  `json:"rule"`
	Metric     string  `json:"metric"`
	Value      float64 `json:"value"`
	Limit      float64 `json:"limit"`
	Action     string  `json:"action"`
	Index      int     `json:"index"`
	N          int     `json:"n"` // Index+1: the event as a person numbers it ("#N")
	EventID    string  `json:"event_id"`
	Result     string  `json:"result"`
}

// active reports whether a run is in progress.
func active(status string) bool {
	return status == model.StatusRunning || status == model.StatusWaitingForConfirmation
}

// guardUpdates evaluates the guards over the events of ups and returns a
// line per trip. Only a conversation still running when its events are in
// is acted on and reported: a guard in a fleet is a watchdog over runs in
// progress, not a judge of histories that have already ended.
func (w *FleetWatch) guardUpdates(ups []model.FleetUpdate) []string {
	if len(w.opts.Guards) == 0 {
		return nil
	}
	g := &w.guards
	if g.judge == nil {
		g.judge, g.stopped = guard.NewFleet(w.opts.Guards), map[model.ConversationRef]*guardStop{}
	}
	var lines []string
	for _, rep := range g.judge.Apply(ups) {
		if rep.Kind == guard.CannotJudge || !active(rep.Status) {
			continue
		}
		lines = append(lines, w.fleetTrip(rep))
	}
	// A run a guard stopped keeps that outcome while it stays paused,
	// whatever later updates of its row say; resumed, its guards re-armed.
	for ref, stop := range g.stopped {
		switch g.judge.Status(ref) {
		case model.StatusPaused:
			stop.paused = true
			w.outcomes[ref] = fleet.OutcomeGuard
		case model.StatusRunning:
			if stop.paused {
				delete(g.stopped, ref)
				w.outcomes[ref] = fleet.OutcomeRunning
			}
		}
	}
	return lines
}

// fleetTrip acts on one trip and returns its line.
func (w *FleetWatch) fleetTrip(rep guard.FleetReport) string {
	ref := rep.Ref
	result := "notified"
	by, stopped := w.guards.stopped[ref]
	switch {
	case !rep.Rule.Action.Stops():
	case stopped:
		result = "not sent: guard " + by.by.Rule.Text + " already stopped the run"
	case w.opts.Act == nil:
		result = "not sent: this source has no controls"
	default:
		ctx := w.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		res, err := w.opts.Act(ctx, ref, rep.Rule.Action)
		if err != nil {
			res = "failed: " + err.Error()
		} else {
			w.guards.stopped[ref] = &guardStop{by: rep.Report}
		}
		result = res
	}
	result = sanitize.Line(result)
	id, source := sanitize.Line(ref.ID), fleet.SourceLabel(ref)
	if w.opts.JSON {
		b, err := json.Marshal(fleetGuardLine{Type: "guard", Source: source, SourceKind: ref.Kind.String(), ID: id,
			Rule: sanitize.Line(rep.Rule.Text), Metric: string(rep.Rule.Metric), Value: rep.Value, Limit: rep.Limit,
			Action: string(rep.Rule.Action), Index: rep.Index, N: format.EventN(rep.Index), EventID: sanitize.Line(rep.EventID), Result: result})
		if err != nil {
			return ""
		}
		return string(b) + "\n"
	}
	value, limit := guard.Pair(rep.Rule.Metric, rep.Value, rep.Limit)
	return fmt.Sprintf("  !! %s  guard %s tripped at %s: %s %s > %s → %s: %s  [%s]\n", id, sanitize.Line(rep.Rule.Text),
		format.Event(rep.Index), rep.Rule.Metric, value, limit,
		rep.Rule.Action, result, source)
}
