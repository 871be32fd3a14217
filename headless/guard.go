package headless

import (
	"context"
	"fmt"
	"time"

	"ohwatch/format"
	"ohwatch/guard"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// Act carries out a tripped pause or interrupt guard on the conversation
// and returns the server's answer in words ("paused"); an error says why it
// was not done.
type Act func(ctx context.Context, action guard.Action) (result string, err error)

// guardWatch is a watch's guards: what tripped and what was done.
type guardWatch struct {
	// stop is the first pause or interrupt guard that tripped; nil until
	// one does.
	stop *guard.Report
	// failed is why acting on stop did not work; the watch then ends.
	failed error
	// held are stop trips found in the history before the live stream:
	// acted on once the history is read, if the conversation still runs.
	held []guard.Report
	// lastArrival is when the latest events arrived, for idle guards
	// between events.
	lastArrival time.Time
}

// idleTick is how often a live watch with an idle guard checks the time
// since the last event.
const idleTick = time.Second

// idleTicker ticks for a live watch with an idle guard; nil otherwise.
func (w *watcher) idleTicker() (<-chan time.Time, func()) {
	if w.opts.Recording || w.opts.Act == nil || !hasIdle(w.opts.Guards) {
		return nil, func() {}
	}
	t := time.NewTicker(idleTick)
	w.guard.lastArrival = time.Now()
	return t.C, t.Stop
}

func hasIdle(s *guard.Set) bool {
	for _, g := range s.Guards() {
		if g.Rule.Metric == guard.Idle {
			return true
		}
	}
	return false
}

// guardIdle evaluates the idle guards with the time since the last events
// arrived: a run that stalls trips them without waiting for an event.
func (w *watcher) guardIdle() (Result, bool) {
	if !w.live {
		return Result{}, false
	}
	for _, rep := range w.opts.Guards.Tick(time.Since(w.guard.lastArrival)) {
		if rep.Rule.Action.Stops() {
			w.guardAct(rep)
		} else {
			w.guardResult(rep, "notified")
		}
	}
	return w.guardDecide(w.log.Latest())
}

// guardLine is the JSON of a tripped guard.
type guardLine struct {
	Type    string  `json:"type"`
	Rule    string  `json:"rule"`
	Metric  string  `json:"metric"`
	Value   float64 `json:"value"`
	Limit   float64 `json:"limit"`
	Action  string  `json:"action"`
	Index   int     `json:"index"`
	N       int     `json:"n"` // Index+1: the event as a person numbers it ("#N")
	EventID string  `json:"event_id"`
	Result  string  `json:"result"`
}

// guardEvent evaluates the guards after event i. A pause or interrupt
// trip in a recording is a dry run; in a live watch it is acted on at once,
// or, in the history read before the live stream, once that is read.
func (w *watcher) guardEvent(i int, ev model.Event, cur reducer.State) {
	for _, rep := range w.opts.Guards.Observe(i, ev, &cur) {
		switch {
		case rep.Kind == guard.CannotJudge:
			w.p.note("note", "guard "+rep.Rule.Text+": "+rep.Note)
		case w.opts.Act == nil:
			w.guardResult(rep, "dry-run")
			if rep.Rule.Action.Stops() && w.guard.stop == nil {
				w.guard.stop = &rep
			}
		case !rep.Rule.Action.Stops():
			w.guardResult(rep, "notified")
		case !w.live:
			w.guard.held = append(w.guard.held, rep)
		default:
			w.guardAct(rep)
		}
	}
}

// guardHeld acts on the stop trips the history held, now that it is read:
// only if the conversation is still running does the first of them stop it.
func (w *watcher) guardHeld(s reducer.State) {
	held := w.guard.held
	w.guard.held = nil
	for _, rep := range held {
		switch s.Status {
		case model.StatusRunning, model.StatusWaitingForConfirmation:
			w.guardAct(rep)
		default:
			w.guardResult(rep, "not sent: the conversation is already "+model.StatusWords(s.Status))
		}
	}
}

// guardAct stops the conversation for a tripped pause or interrupt guard,
// once: a later trip is reported as already done.
func (w *watcher) guardAct(rep guard.Report) {
	if w.guard.stop != nil {
		w.guardResult(rep, "not sent: guard "+w.guard.stop.Rule.Text+" already stopped the run")
		return
	}
	w.guard.stop = &rep
	w.p.flush() // the lines up to the trip are out before the request
	result, err := w.opts.Act(w.ctx, rep.Rule.Action)
	if err != nil {
		w.guard.failed = err
		result = "failed: " + err.Error()
	}
	w.guardResult(rep, result)
}

// guardResult prints a trip's line.
func (w *watcher) guardResult(rep guard.Report, result string) {
	result = sanitize.Line(result)
	if w.p.json {
		w.p.writeJSON(guardLine{Type: "guard", Rule: sanitize.Line(rep.Rule.Text), Metric: string(rep.Rule.Metric),
			Value: rep.Value, Limit: rep.Limit, Action: string(rep.Rule.Action), Index: rep.Index, N: format.EventN(rep.Index),
			EventID: sanitize.Line(rep.EventID), Result: result})
		return
	}
	where := "at " + format.Event(rep.Index)
	if rep.Index < 0 {
		where = "between events"
	}
	value, limit := guard.Pair(rep.Rule.Metric, rep.Value, rep.Limit)
	w.p.printf("  !! guard %s tripped %s: %s %s > %s → %s: %s\n", sanitize.Line(rep.Rule.Text), where,
		rep.Rule.Metric, value, limit, rep.Rule.Action, result)
}

// guardDecide ends a live watch a guard stopped: once the server reports
// the conversation paused, or at once when the pause could not be sent.
func (w *watcher) guardDecide(s reducer.State) (Result, bool) {
	stop := w.guard.stop
	if stop == nil || w.opts.Recording {
		return Result{}, false
	}
	switch {
	case w.guard.failed != nil:
		return Result{Exit: ExitGuard, Status: s.Status, Reason: fmt.Sprintf("%s tripped, but stopping the run failed: %v", stop.Rule.Text, w.guard.failed)}, true
	case s.Status == model.StatusPaused:
		// The snapshot that confirms the pause often came in the same
		// batch as the per-field paused that ends the watch.
		l := w.log.Latest()
		confirmed := s.StatusConfirmed || (l.Status == model.StatusPaused && l.StatusConfirmed)
		return Result{Exit: ExitGuard, Status: s.Status, Confirmed: confirmed, Reason: fmt.Sprintf("%s %s the run at %s", stop.Rule.Text, pastOf(stop.Rule.Action), format.Event(stop.Index))}, true
	}
	return Result{}, false
}

// guardDryRun is the end of a recording a stop guard tripped in: it would
// have stopped there.
func (w *watcher) guardDryRun(s reducer.State) (Result, bool) {
	stop := w.guard.stop
	if stop == nil {
		return Result{}, false
	}
	return Result{Exit: ExitGuard, Status: s.Status, Verdict: s.Verdict(true).String(),
		Reason: fmt.Sprintf("%s would have stopped the run at %s (dry run)", stop.Rule.Text, format.Event(stop.Index))}, true
}

// pastOf is an action as done: paused, interrupted.
func pastOf(a guard.Action) string {
	if a == guard.Interrupt {
		return "interrupted"
	}
	return "paused"
}
