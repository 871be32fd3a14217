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
// until limit passes, and reports false when ctx ends first. A rejection
// emits the rejections before the replay carries on.
func (c *conversation) hold(ctx context.Context, limit time.Duration) bool {
	c.mu.Lock()
	c.holding = true
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.holding = false
		c.mu.Unlock()
		select { // a decision that raced the timer is spent
		case <-c.decisions:
		default:
		}
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case d := <-c.decisions:
		if !d.accept {
			c.mu.Lock()
			c.rejectLocked(d.reason)
			c.mu.Unlock()
		}
		return true
	case <-timer.C:
		c.log.Debug("confirmation hold passed", "conversation", c.id)
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
	if !accept && c.state.Status == model.StatusWaitingForConfirmation {
		c.rejectLocked(reason)
	}
}

// rejectLocked emits what the agent-server emits on a rejection: one
// UserRejectObservation per pending action, then execution_status=idle.
func (c *conversation) rejectLocked(reason string) {
	if reason == "" {
		reason = "User rejected the action"
	}
	for _, p := range c.state.Pending {
		c.emitNewLocked(userRejectJSON(c.nowLocked(), p.ToolName, p.ToolCallID, p.ID, reason))
	}
	c.emitNewLocked(statusUpdateJSON(c.nowLocked(), model.StatusIdle))
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
	if c.next == 0 || c.done || c.silent || runEnded(c.state.Status) {
		return
	}
	c.pausedFrom = c.state.Status
	kind := "PauseEvent"
	if interrupt {
		kind = "InterruptEvent"
	}
	c.emitNewLocked(markerJSON(c.nowLocked(), "user", kind))
	c.emitNewLocked(statusUpdateJSON(c.nowLocked(), model.StatusPaused))
	c.broadcastLocked(c.snapshotLocked())
}

// run restarts the playback clock, restoring the status /pause replaced.
// Once the replay is over there is nothing to run and it succeeds, as /run
// on an idle or finished agent-server conversation does.
func (c *conversation) run() error {
	if !c.clock.setPaused(false) {
		c.mu.Lock()
		over := c.done
		c.mu.Unlock()
		if over {
			return nil
		}
		return errAlreadyRunning
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pausedFrom != "" {
		status := c.pausedFrom
		c.pausedFrom = ""
		if !c.silent {
			c.emitNewLocked(statusUpdateJSON(c.nowLocked(), status))
		}
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
