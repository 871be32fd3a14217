package serve

import (
	"context"
	"time"

	"ohwatch/model"
)

// play emits the recording at its recorded pace until it ends, ctx ends or
// the conversation goes silent. It is the only goroutine that emits
// recorded events. The recording can change under it: a rejection may
// replace the rest of it by a recorded branch.
func (c *conversation) play(ctx context.Context, opts *Options) {
	var carried time.Duration // already waited towards the next gap
	for i := c.resumeAt(); c.more(i); i++ {
		gap := c.gap(i) - carried
		carried = 0
		var endsRun, waits, emitted bool
		for !emitted {
			if !c.clock.wait(ctx, gap) || c.isSilent() {
				return
			}
			// A pause that lands between the end of the wait and the
			// emission holds the event back; the wait then starts again
			// with nothing left of the gap.
			emitted, endsRun, waits = c.emitRecorded(i)
			gap = 0
		}
		if endsRun && c.settles(i, opts.FinishConfirmDelay) {
			if !c.clock.wait(ctx, opts.FinishConfirmDelay) {
				return
			}
			carried = opts.FinishConfirmDelay
			c.mu.Lock()
			c.broadcastSnapshotLocked()
			c.mu.Unlock()
		}
		if waits && opts.ConfirmHold != 0 {
			if !c.hold(ctx, opts.ConfirmHold) {
				return
			}
		}
	}
	c.log.Debug("replay finished", "conversation", c.id)
}

// length is the number of recorded events to play.
func (c *conversation) length() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.recorded)
}

// finished reports whether the player has emitted the whole recording and
// everything that follows it (the confirming snapshot).
func (c *conversation) finished() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.playedOut
}

// settles reports whether the run that ended at recorded event i stays
// ended for delay: the next event is not due sooner. Only then does the
// snapshot confirm it. When the recording goes on within delay the run did
// not settle, as when a Stop hook reverts a finished, and the status stays
// provisional; a delay longer than MaxGap/Speed therefore confirms only the
// recording's last run.
func (c *conversation) settles(i int, delay time.Duration) bool {
	return i+1 >= c.length() || c.gap(i+1) >= delay
}

// gap is the wall time between recorded event i-1 and event i: the
// recorded gap divided by Speed, capped at MaxGap/Speed; 0 for the first
// event, for Speed 0 and when either timestamp is missing.
func (c *conversation) gap(i int) time.Duration {
	if i == 0 || c.speed <= 0 {
		return 0
	}
	c.mu.Lock()
	if i >= len(c.recorded) {
		c.mu.Unlock()
		return 0
	}
	prev, cur := c.recorded[i-1].Time, c.recorded[i].Time
	c.mu.Unlock()
	if prev.IsZero() || cur.IsZero() {
		return 0
	}
	d := min(cur.Sub(prev), MaxGap)
	if d <= 0 {
		return 0
	}
	return time.Duration(float64(d) / c.speed)
}

// emitRecorded emits recorded event i unless the clock has been paused
// meanwhile, and reports whether it did, whether the run stopped there (a
// snapshot must follow) and whether it put the conversation in
// waiting_for_confirmation. The result of a rejected action is passed over:
// it never ran.
func (c *conversation) emitRecorded(i int) (emitted, endsRun, waits bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clock.isPaused() {
		return false, false, false
	}
	ev := c.recorded[i]
	c.next = i + 1
	c.done = c.next == len(c.recorded)
	c.lastRecorded, c.lastEmitAt = ev.Time, time.Now()
	before := c.sentStatus
	if !c.skippedLocked(ev) && !c.passesWaitLocked(ev) {
		c.runApprovedLocked(ev)
		c.emitLocked(ev, false)
		if c.silent {
			return true, false, false
		}
		c.syncStatusLocked()
		c.askWaitLocked(ev)
		c.policyWaitLocked(i)
	}
	if c.done {
		c.finalStatusLocked()
	}
	after := c.sentStatus
	endsRun = after != before && runStops(after)
	waits = after == model.StatusWaitingForConfirmation && before != after
	if waits && c.holds {
		c.holding = true
	}
	return true, endsRun, waits
}

// runEnded reports whether status ends a run for good or for a while: the
// end of a run, a pause or interrupt.
func runEnded(status string) bool {
	switch status {
	case model.StatusFinished, model.StatusError, model.StatusStuck, model.StatusPaused:
		return true
	}
	return false
}

// runApprovedLocked sends execution_status=running before the result of an
// action that waited for confirmation, for a recording that carries no
// status updates of its own: upstream the run loop sets RUNNING and only
// then does agent.step execute the approved action (openhands-sdk
// LocalConversation.run), so a client sees running before the action's
// observation, never after it.
func (c *conversation) runApprovedLocked(ev model.Event) {
	if c.statusEvents || c.sentStatus != model.StatusWaitingForConfirmation {
		return
	}
	switch ev.Body.(type) {
	case *model.Observation, *model.AgentError:
		c.sendStatusLocked(model.StatusRunning)
	}
}
