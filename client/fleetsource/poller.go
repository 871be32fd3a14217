package fleetsource

import (
	"context"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Polling defaults: an agent-server's or Cloud's listing is asked again
// every few seconds, so a new conversation shows within one interval; a
// listing that fails is asked less and less often, up to once a minute.
const (
	DefaultInterval   = 5 * time.Second
	DefaultMaxBackoff = time.Minute
)

// poller asks a listing at an interval, backing off while it fails.
type poller struct {
	interval, maxBackoff time.Duration
	// code classifies a failure for ConnState.Code ("auth", …); nil gives "".
	code func(error) string
}

func newPoller(interval, maxBackoff time.Duration, code func(error) string) poller {
	if interval <= 0 {
		interval = DefaultInterval
	}
	if maxBackoff <= 0 {
		maxBackoff = DefaultMaxBackoff
	}
	return poller{interval: interval, maxBackoff: max(maxBackoff, interval), code: code}
}

// delay is the wait after n failures in a row (0: after a success): the
// interval, doubling per failure up to maxBackoff.
func (p poller) delay(n int) time.Duration {
	d := p.interval
	for i := 0; i < n && d < p.maxBackoff; i++ {
		d *= 2
	}
	return min(d, p.maxBackoff)
}

// run calls list at once and then again after each wait until ctx ends,
// or until the listing's key is rejected (PhaseLost, Final: it stops).
// report hears of every other failure (PhaseReconnecting, with the attempt, the
// wait and the reason) and of the first success and each success after a
// failure (PhaseLive); a listing that keeps answering is not reported
// again.
func (p poller) run(ctx context.Context, list func(context.Context) error, report func(model.ConnState)) {
	failures := 0
	for first := true; ; first = false {
		err := list(ctx)
		if ctx.Err() != nil {
			return
		}
		switch {
		case err != nil:
			failures++
			cs := model.ConnState{Phase: model.PhaseReconnecting, Attempt: failures, RetryIn: p.delay(failures), Reason: sanitize.Line(err.Error())}
			if p.code != nil {
				cs.Code = p.code(err)
			}
			if cs.Code == agentserver.CodeAuth {
				// A rejected key stays rejected: asking again changes
				// nothing, as for a single watch. The source is lost for
				// good, which a headless --until reads as unreachable.
				cs.Phase, cs.Final, cs.Attempt, cs.RetryIn = model.PhaseLost, true, 0, 0
				report(cs)
				return
			}
			report(cs)
		case first || failures > 0:
			failures = 0
			report(model.ConnState{Phase: model.PhaseLive})
		}
		t := time.NewTimer(p.delay(failures))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
