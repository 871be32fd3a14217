package serve

import (
	"context"
	"sync"
	"time"
)

// clock is a conversation's playback clock: the player waits on it between
// events, and /pause and /run stop and restart it. A wait interrupted by a
// pause resumes with the time it had left.
type clock struct {
	mu      sync.Mutex
	paused  bool
	changed chan struct{} // closed and replaced on every pause or resume
	// parked counts the waits held by a pause right now: nothing they
	// would emit can go out until /run, which a test observes instead of
	// letting time pass.
	parked int
}

func newClock(paused bool) *clock {
	return &clock{paused: paused, changed: make(chan struct{})}
}

// setPaused stops or restarts the clock and reports whether that changed
// anything.
func (c *clock) setPaused(paused bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused == paused {
		return false
	}
	c.paused = paused
	close(c.changed)
	c.changed = make(chan struct{})
	return true
}

// isPaused reports whether the clock is stopped.
func (c *clock) isPaused() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paused
}

func (c *clock) park(d int) {
	c.mu.Lock()
	c.parked += d
	c.mu.Unlock()
}

// waitsParked is how many waits a pause holds.
func (c *clock) waitsParked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parked
}

func (c *clock) state() (bool, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paused, c.changed
}

// wait lets d of running clock time pass (none of it while paused) and
// reports false when ctx ends first. A zero wait still blocks while the
// clock is paused, so nothing is emitted until /run.
func (c *clock) wait(ctx context.Context, d time.Duration) bool {
	remaining := d
	for {
		paused, changed := c.state()
		if paused {
			c.park(1)
			select {
			case <-changed:
				c.park(-1)
				continue
			case <-ctx.Done():
				c.park(-1)
				return false
			}
		}
		if remaining <= 0 {
			return ctx.Err() == nil
		}
		start := time.Now()
		timer := time.NewTimer(remaining)
		select {
		case <-timer.C:
			return true
		case <-changed:
			timer.Stop()
			remaining -= time.Since(start)
		case <-ctx.Done():
			timer.Stop()
			return false
		}
	}
}
