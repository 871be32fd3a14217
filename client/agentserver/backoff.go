package agentserver

import (
	"math/rand/v2"
	"time"
)

// Reconnect backoff defaults: 1 s doubling to 30 s, as the SDK's own client
// does (protocol §7).
const (
	defaultBaseBackoff = time.Second
	defaultMaxBackoff  = 30 * time.Second
)

// backoff computes the wait before reconnect attempt n (from 1).
type backoff struct {
	base, max time.Duration
	// jitter spreads a delay so that many clients dropped by one server
	// restart do not return in lockstep.
	jitter func(time.Duration) time.Duration
}

// delay is base·2^(n-1), capped at max, then jittered (and capped again,
// so a jitter source can never push a wait past max).
func (b backoff) delay(n int) time.Duration {
	d := b.base
	for i := 1; i < n && d < b.max; i++ {
		d *= 2
	}
	d = min(d, b.max)
	if b.jitter != nil {
		d = b.jitter(d)
	}
	return max(0, min(d, b.max))
}

// equalJitter returns a delay uniformly spread over [d/2, d]: never less
// than half the nominal wait, never more.
func equalJitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	half := d / 2
	return half + rand.N(d-half+1)
}
