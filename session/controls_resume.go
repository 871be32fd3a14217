package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// A resume right after a pause: the agent-server sets the status to
// paused at once, but the run it stopped ends only after the events it
// emitted have been delivered (to Cloud, through the sandbox's webhook,
// up to 30 s on the 1.43 agent-server), and until then it refuses a new
// run with 409 "already running" although its status says paused. That
// refusal is not the person's mistake and not the server's last word: the
// resume is asked again, with a bounded backoff, until the server takes
// it, saying meanwhile what it waits for. A 409 for a conversation that
// really runs is told as such at once.

// resumeBackoff is the first wait between two asks and resumeBackoffMax
// the longest: the paused run ends within seconds on an idle server.
const (
	resumeBackoff    = 250 * time.Millisecond
	resumeBackoffMax = 4 * time.Second
)

// stillFinishing is what a resume says while the server finishes the
// paused run.
const stillFinishing = "the server is still finishing the paused run (delivering its last events); asking again until it takes the resume"

// RunWaiting implements tui.RunWaiter.
func (cf confirmer) RunWaiting(ctx context.Context, say func(string)) error {
	return runWaiting(ctx, cf.c, cf.id, say, time.After)
}

// Run implements conversationControls: a resume that waits for the
// paused run to end, saying nothing meanwhile.
func (cf confirmer) Run(ctx context.Context) error { return cf.RunWaiting(ctx, nil) }

// runWaiting asks the server at c to run conversation id until it takes
// it or refuses for another reason; after waits between two asks (tests
// give a clock of their own).
func runWaiting(ctx context.Context, c *agentserver.Client, id string, say func(string), after func(time.Duration) <-chan time.Time) error {
	start, wait := time.Now(), resumeBackoff
	for {
		err := c.Run(ctx, id)
		if err == nil || !errors.Is(err, agentserver.ErrConflict) {
			return err
		}
		info, infoErr := c.Conversation(ctx, id)
		switch {
		case infoErr != nil:
			return err
		case info.ExecutionStatus == model.StatusRunning:
			return errors.New("it is already running (the server says so); nothing to resume")
		}
		if say != nil {
			say(stillFinishing)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the server was still finishing the paused run after %s (its status %s); nothing resumed; resume again later",
				time.Since(start).Round(time.Second), sanitize.Line(info.ExecutionStatus))
		case <-after(wait):
		}
		wait = min(2*wait, resumeBackoffMax)
	}
}
