package serve

import (
	"context"
	"errors"
	"time"

	"ohwatch/model"
)

// errAlreadyRunning is returned by run when the clock is not paused; the
// agent-server answers /run with 409 then.
var errAlreadyRunning = errors.New("conversation is already running")

// hold waits at waiting_for_confirmation for a respond_to_confirmation or
// until limit passes, and reports false when ctx ends first. The hold began
// when emitRecorded set holding: a decision made since waits in decisions.
// A rejection
// emits the rejections before the replay carries on.
func (c *conversation) hold(ctx context.Context, limit time.Duration) bool {
	defer func() {
		c.mu.Lock()
		c.holding = false
		c.mu.Unlock()
		select { // a decision that raced the timer is spent
		case <-c.decisions:
		default:
		}
	}()
	var passed <-chan time.Time // nil: until answered
	if limit > 0 {
		timer := time.NewTimer(limit)
		defer timer.Stop()
		passed = timer.C
	}
	select {
	case d := <-c.decisions:
		c.mu.Lock()
		switch {
		case d.applied:
		case d.answer != nil:
			c.answerLocked(*d.answer)
		case d.accept:
			c.acceptedLocked()
		default:
			c.rejectLocked(d.reason)
		}
		c.mu.Unlock()
		return true
	case <-passed:
		c.log.Info("no answer to the confirmation within the hold: accepting it (--confirm-hold)", "conversation", c.id, "hold", limit)
		c.mu.Lock()
		c.acceptedLocked()
		c.mu.Unlock()
		if c.onHoldPassed != nil {
			c.onHoldPassed(c.dashedID, limit)
		}
		return true
	case <-ctx.Done():
		return false
	}
}

// respond handles POST respond_to_confirmation. While the replay holds, the
// decision releases it; otherwise a rejection while waiting for
// confirmation still rejects the pending actions, and anything else has
// nothing to act on.
func (c *conversation) respond(accept bool, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.holding {
		select {
		case c.decisions <- decision{accept: accept, reason: reason}:
		default: // a decision is already on its way
		}
		return
	}
	if !accept && c.statusLocked() == model.StatusWaitingForConfirmation {
		c.rejectLocked(reason)
	}
}

// rejectLocked does what the agent-server does on a rejection: one
// UserRejectObservation per pending action, then execution_status=idle.
// The recorded results of those actions are passed over (they never ran),
// and when the recording has a branch for a rejected action, the branch
// replaces the rest of the recording: the run goes on as it went when that
// action was rejected.
func (c *conversation) rejectLocked(reason string) {
	if reason == "" {
		reason = "User rejected the action"
	}
	var branch []model.Event
	for _, p := range c.state.Pending {
		c.emitNewLocked(userRejectJSON(c.nowLocked(), p.ToolName, p.ToolCallID, p.ID, reason))
		c.rejected[p.ID] = true
		if p.ToolCallID != "" {
			c.rejected["call:"+p.ToolCallID] = true
		}
		if b, ok := c.branches[p.ID]; ok && branch == nil {
			branch = b
		}
	}
	c.sendStatusLocked(model.StatusIdle)
	if branch != nil {
		c.recorded = append(c.recorded[:c.next:c.next], branch...)
		c.done = c.next == len(c.recorded)
	}
}

// pause stops the playback clock. Once the replay has begun, it also emits
// what the agent-server does on /pause (or /interrupt): a PauseEvent (or
// InterruptEvent), execution_status=paused and a snapshot; /run restores the
// status it replaced.
func (c *conversation) pause(interrupt bool) {
	if !c.clock.setPaused(true) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next == 0 || c.done || c.silent || runEnded(c.statusLocked()) {
		return
	}
	c.pausedFrom = c.statusLocked()
	kind := model.KindPause
	if interrupt {
		kind = model.KindInterrupt
	}
	c.emitNewLocked(markerJSON(c.nowLocked(), "user", kind))
	c.sendStatusLocked(model.StatusPaused)
	c.broadcastSnapshotLocked()
}

// run restarts the playback clock, restoring the status /pause replaced.
// Once the replay is over there is nothing to run and it succeeds, as /run
// on an idle or finished agent-server conversation does.
func (c *conversation) run() error {
	// The clock restarts under the conversation's lock, with the restored
	// status sent in the same step: the player emits under that lock after
	// checking the clock, so no recorded event (at Speed 0, the whole rest
	// of the run) can come out before the "running" it follows.
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.clock.setPaused(false) {
		if c.done {
			return nil
		}
		return errAlreadyRunning
	}
	if c.pausedFrom != "" {
		status := c.pausedFrom
		c.pausedFrom = ""
		c.sendStatusLocked(status)
	}
	return nil
}

// appendUserMessage appends the user MessageEvent for a Message a client
// sent over the socket.
func (c *conversation) appendUserMessage(message []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.emitNewLocked(userMessageJSON(c.nowLocked(), message))
}
