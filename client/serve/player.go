package serve

import (
	"context"
	"time"

	"ohwatch/model"
)

// play emits the recording at its recorded pace until it ends, ctx ends or
// the conversation goes silent. It is the only goroutine that emits
// recorded events.
func (c *conversation) play(ctx context.Context, opts *Options) {
	var carried time.Duration // already waited towards the next gap
	for i := range c.recorded {
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
			c.broadcastLocked(c.snapshotLocked())
			c.mu.Unlock()
		}
		if waits && opts.ConfirmHold > 0 {
			if !c.hold(ctx, opts.ConfirmHold) {
				return
			}
		}
	}
	c.mu.Lock()
	c.playedOut = true
	c.mu.Unlock()
	c.log.Debug("replay finished", "conversation", c.id)
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
	return i+1 >= len(c.recorded) || c.gap(i+1) >= delay
}

// gap is the wall time between recorded event i-1 and event i: the
// recorded gap divided by Speed, capped at MaxGap/Speed; 0 for the first
// event, for Speed 0 and when either timestamp is missing.
func (c *conversation) gap(i int) time.Duration {
	if i == 0 || c.speed <= 0 {
		return 0
	}
	prev, cur := c.recorded[i-1].Time, c.recorded[i].Time
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
// meanwhile, and reports whether it did, whether the event ended a run (a
// snapshot must confirm it) and whether it put the conversation in
// waiting_for_confirmation.
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
	before, after := c.emitLocked(ev)
	if c.silent {
		return true, false, false
	}
	if c.statusEvents {
		// The recording says when runs end; only its own per-field
		// execution_status updates trigger the confirming snapshot.
		u, ok := ev.Body.(*model.StateUpdate)
		endsRun = ok && !u.FullState && u.Key == "execution_status" && runEnded(after)
	} else {
		endsRun = after != before && runEnded(after)
	}
	waits = after == model.StatusWaitingForConfirmation && before != after
	return true, endsRun, waits
}

// runEnded reports whether status is one after which the agent-server
// publishes a full_state snapshot: the end of a run, a pause or interrupt.
func runEnded(status string) bool {
	switch status {
	case model.StatusFinished, model.StatusError, model.StatusStuck, model.StatusPaused:
		return true
	}
	return false
}
