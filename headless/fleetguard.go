package headless

import (
	"context"
	"encoding/json"
	"fmt"

	"ohwatch/fleet"
	"ohwatch/guard"
	"ohwatch/model"
	"ohwatch/reducer"
)

// FleetAct stops one conversation of a fleet for a tripped pause or
// interrupt guard and returns the server's answer in words; an error says
// why it was not done.
type FleetAct func(ctx context.Context, ref model.ConversationRef, action guard.Action) (string, error)

// fleetGuards are a fleet watch's guards, one Set per conversation.
type fleetGuards struct {
	per map[model.ConversationRef]*convGuards
	// stopped are the conversations a guard stopped, until they run again.
	stopped map[model.ConversationRef]*convGuards
}

// convGuards are one conversation's guards and the fold they judge: its
// events in arrival order, each once.
type convGuards struct {
	set   *guard.Set
	state reducer.State
	ids   model.IDSet
	// stopped is the guard that stopped the run, until it runs again.
	stopped *guard.Report
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
	EventID    string  `json:"event_id"`
	Result     string  `json:"result"`
}

// guardUpdates evaluates the guards over the events of ups and returns a
// line per trip. Only a conversation still running when its events are in
// is acted on and reported: a guard in a fleet is a watchdog over runs in
// progress, not a judge of histories that have already ended.
func (w *FleetWatch) guardUpdates(ups []model.FleetUpdate) []string {
	if len(w.opts.Guards) == 0 {
		return nil
	}
	if w.guards.per == nil {
		w.guards.per = map[model.ConversationRef]*convGuards{}
		w.guards.stopped = map[model.ConversationRef]*convGuards{}
	}
	var lines []string
	for i := range ups {
		u := &ups[i]
		if u.Ref.ID == "" || len(u.Batch.Events) == 0 {
			continue
		}
		g := w.guards.per[u.Ref]
		if g == nil {
			g = &convGuards{set: guard.New(w.opts.Guards), state: reducer.Initial(nil, 0)}
			w.guards.per[u.Ref] = g
		}
		var trips []guard.Report
		for _, ev := range u.Batch.Events {
			if !g.ids.Add(ev.ID) {
				continue
			}
			n := g.state.Applied
			g.state = reducer.Apply(g.state, ev)
			trips = append(trips, g.set.Observe(n, ev, &g.state)...)
		}
		active := g.state.Status == model.StatusRunning || g.state.Status == model.StatusWaitingForConfirmation
		if g.stopped != nil && g.state.Status == model.StatusRunning {
			g.stopped = nil // resumed: the guards re-armed
			delete(w.guards.stopped, u.Ref)
			w.outcomes[u.Ref] = fleet.OutcomeRunning
		}
		for _, rep := range trips {
			if rep.Kind == guard.CannotJudge || !active {
				continue
			}
			lines = append(lines, w.fleetTrip(u.Ref, g, rep))
			if g.stopped != nil {
				w.guards.stopped[u.Ref] = g
			}
		}
	}
	// A run a guard stopped keeps that outcome while it stays paused,
	// whatever later updates of its row say.
	for ref, g := range w.guards.stopped {
		if g.stopped != nil && g.state.Status == model.StatusPaused {
			w.outcomes[ref] = fleet.OutcomeGuard
		}
	}
	return lines
}

// fleetTrip acts on one trip and returns its line.
func (w *FleetWatch) fleetTrip(ref model.ConversationRef, g *convGuards, rep guard.Report) string {
	result := "notified"
	switch {
	case !rep.Rule.Action.Stops():
	case g.stopped != nil:
		result = "not sent: guard " + g.stopped.Rule.Text + " already stopped the run"
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
			g.stopped = &rep
		}
		result = res
	}
	result = model.SanitizeLine(result)
	id, source := model.SanitizeLine(ref.ID), fleet.SourceLabel(ref)
	if w.opts.JSON {
		return jsonGuardLine(fleetGuardLine{Type: "guard", Source: source, SourceKind: ref.Kind.String(), ID: id,
			Rule: model.SanitizeLine(rep.Rule.Text), Metric: string(rep.Rule.Metric), Value: rep.Value, Limit: rep.Limit,
			Action: string(rep.Rule.Action), Index: rep.Index, EventID: model.SanitizeLine(rep.EventID), Result: result})
	}
	return fmt.Sprintf("  !! %s  guard %s tripped at event %d: %s %s > %s → %s: %s  [%s]\n", id, model.SanitizeLine(rep.Rule.Text),
		rep.Index, rep.Rule.Metric, guard.Format(rep.Rule.Metric, rep.Value), guard.Format(rep.Rule.Metric, rep.Limit),
		rep.Rule.Action, result, source)
}

func jsonGuardLine(v fleetGuardLine) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b) + "\n"
}
