package cloud

import (
	"context"
	"fmt"
	"time"
)

// poll calls check until it reports done or fails, pausing interval between
// calls, for at most timeout. check returns the status it saw, which names
// the wait in a timeout error. A transient failure of check (see transient)
// is passed to retrying, when non-nil, and the poll goes on; any other
// error ends it. A timeout is ErrTimeout; the cancellation of ctx itself is
// returned as ctx's error, so callers can tell Ctrl-C apart.
func poll(ctx context.Context, timeout, interval time.Duration, what string, retrying func(error), check func(ctx context.Context) (status string, done bool, err error)) error {
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	timer := time.NewTimer(0)
	defer timer.Stop()
	last := "no reply"
	for {
		select {
		case <-waitCtx.Done():
			return pollTimeout(ctx, timeout, what, last)
		case <-timer.C:
		}
		status, done, err := check(waitCtx)
		if err != nil {
			if ctx.Err() == nil && waitCtx.Err() != nil {
				return pollTimeout(ctx, timeout, what, last)
			}
			if !transient(err) {
				return err
			}
			// A gateway hiccup during a long wait is not a failure of
			// the sandbox: note it and poll again until the deadline.
			last = "unknown after: " + err.Error()
			if retrying != nil {
				retrying(err)
			}
			timer.Reset(interval)
			continue
		}
		if status != "" {
			last = status
		}
		if done {
			return nil
		}
		timer.Reset(interval)
	}
}

// pollTimeout tells a caller's cancellation apart from the poll deadline.
func pollTimeout(ctx context.Context, timeout time.Duration, what, last string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return fmt.Errorf("cloud: %s did not finish within %s (last status %s): %w", what, timeout, last, ErrTimeout)
}
