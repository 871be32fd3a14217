package headless

import (
	"time"

	"ohwatch/fleet"
	"ohwatch/model"
)

// DefaultIdleGrace is how long --until waits for an idle conversation it
// has not seen run to start. A server lists a conversation idle between
// its creation and its first run (the agent-server starts the run of an
// initial message in the background; a client may create it and send the
// message after; `serve --stagger` and a held start do the same), and a
// fork is idle until someone runs it: 30 s covers a start several of the
// fleet's 5 s listings late on a busy machine, and is as long as a fork
// nobody runs holds a watch.
const DefaultIdleGrace = 30 * time.Second

// The rule --until applies to a conversation the server says is at rest
// (Row.Outcome is fleet.OutcomeAtRest), decided by rest below:
//
//   - paused: at rest at once. A person or a guard paused it, and only a
//     person resumes it; the watch does not wait for one.
//   - idle after a run the watch saw (it was running, waiting, finished,
//     …, and went idle: a rejected confirmation, an interrupt): at rest
//     at once. Its run has ended.
//   - idle and never seen to run by this watch — just created, listed
//     before its first run, a fork just made: expected to run. It holds
//     --until (it counts as running) until it has been idle for the
//     grace (DefaultIdleGrace) by the watch's own clock, counted from
//     when the watch first listed it idle or last saw it change (a new
//     listing time, new events); then it is at rest for good (an idle
//     fork nobody runs, a conversation created and never run) and counts
//     as no terminal state. One whose own last activity, as its source
//     reports it, was already a grace old when the watch listed it sat
//     idle before the watch began: at rest at once.
//
// The watch's clock, not the server's, times the grace, so a server whose
// clock runs ahead cannot hold a watch longer; one whose clock runs behind
// by more than the grace makes a conversation just created look old.

// restClock is what the watch knows of one conversation for that rule.
type restClock struct {
	// ran is set once the conversation was seen in a status other than
	// idle: an idle after it is the end of a run.
	ran bool
	// since is when the watch started timing its idle (zero: not timed);
	// activity is its last activity as then reported.
	since, activity time.Time
	// stale is set when its last activity was a grace old when timing
	// started: it sat idle before the watch saw it.
	stale bool
}

// grace is the idle grace in force.
func (w *FleetWatch) grace() time.Duration {
	if w.opts.IdleGrace > 0 {
		return w.opts.IdleGrace
	}
	return DefaultIdleGrace
}

// clockNow is the watch's clock.
func (w *FleetWatch) clockNow() time.Time {
	if w.now != nil {
		return w.now()
	}
	return time.Now()
}

// ranTo records that a change brought ref to idle from another status
// the watch saw: its run has ended, so its idle is at rest at once. Only
// conversations that went idle get a clock: a fleet of 100,000 finished
// ones keeps none.
func (w *FleetWatch) ranTo(c fleet.Change) {
	if c.To.Status == model.StatusIdle && c.From.Status != "" && c.From.Status != model.StatusIdle {
		w.rests[c.Ref] = &restClock{ran: true}
	}
}

// track updates ref's rest clock after an update touched it.
func (w *FleetWatch) track(ref model.ConversationRef, now time.Time) {
	c := w.rests[ref]
	r, ok := w.f.Row(ref)
	if !ok || r.Verdict.Status != model.StatusIdle {
		if c != nil && ok && r.Verdict.Status != "" {
			c.ran, c.since = true, time.Time{}
		}
		return
	}
	if c == nil {
		c = &restClock{}
		w.rests[ref] = c
	}
	if c.ran || !c.since.IsZero() && !r.LastActivity.After(c.activity) {
		return
	}
	// First seen idle, or something moved while idle: the grace starts
	// (again) now.
	c.since, c.activity = now, r.LastActivity
	c.stale = !r.LastActivity.IsZero() && now.Sub(r.LastActivity) >= w.grace()
}

// expected reports whether ref, at rest by its status, is still expected
// to run at now: an idle conversation not seen to run, within its grace.
func (w *FleetWatch) expected(ref model.ConversationRef, now time.Time) bool {
	c := w.rests[ref]
	if c == nil || c.ran || c.stale || c.since.IsZero() {
		return false
	}
	if r, _ := w.f.Row(ref); r.Verdict.Status != model.StatusIdle {
		return false
	}
	return now.Before(c.since.Add(w.grace()))
}

// restOutcome is the outcome --until counts for ref: an idle one still
// expected to run counts as running.
func (w *FleetWatch) restOutcome(ref model.ConversationRef, o fleet.Outcome) fleet.Outcome {
	if o == fleet.OutcomeAtRest && w.expected(ref, w.clockNow()) {
		return fleet.OutcomeRunning
	}
	return o
}

// wake is when the next idle conversation's grace ends (zero: none is
// being timed): the watch decides again then, as nothing else may come.
func (w *FleetWatch) wake() time.Time {
	now := w.clockNow()
	var next time.Time
	for ref, c := range w.rests {
		if !w.expected(ref, now) {
			continue
		}
		if t := c.since.Add(w.grace()); next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next
}
