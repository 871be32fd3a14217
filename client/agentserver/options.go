package agentserver

import (
	"time"

	"ohwatch/model"
)

// Watch defaults. Pings follow the Python SDK client (20 s); the REST check
// catches a conversation deleted behind a socket that merely went silent.
const (
	defaultPingInterval   = 20 * time.Second
	defaultPingTimeout    = 15 * time.Second
	defaultCheckInterval  = 30 * time.Second
	defaultCoalesce       = 16 * time.Millisecond
	defaultReconcileSlack = 2 * time.Second
)

// WatchOptions tunes Watch. The zero value is right for real use; tests
// shrink the durations. A negative duration disables what it times.
type WatchOptions struct {
	// Seen are the ids of events the consumer already has (a conversation
	// shown from stored events before its live stream began): they are
	// not delivered again, from history or from the socket.
	Seen []string

	// OnFullState, if set, is called (on the watch goroutine, so it must
	// return quickly) with every full_state snapshot before it is queued.
	OnFullState func(model.Event)

	// BaseBackoff and MaxBackoff bound the reconnect wait: BaseBackoff
	// doubling per failed attempt up to MaxBackoff (default 1 s and 30 s).
	BaseBackoff time.Duration
	MaxBackoff  time.Duration
	// Jitter spreads each wait (default: uniform over [d/2, d]). Tests pass
	// a deterministic function; the result is capped at MaxBackoff.
	Jitter func(time.Duration) time.Duration
	// MaxAttempts is how many consecutive failed attempts end the watch with
	// a final "connect" failure; zero retries until the context ends.
	MaxAttempts int
	// FirstAttempts, when set, is how many consecutive failed attempts end
	// the watch before it has ever been live or opened a socket: a wrong
	// URL or a server that is not up fails fast, while a watch that was
	// live once, or whose socket opened and then dropped before its first
	// frame (a server restarting), keeps retrying under MaxAttempts.
	FirstAttempts int
	// FirstWait, when set, replaces FirstAttempts: a watch that has never
	// been live or opened a socket keeps retrying this long from its start
	// (a viewer started before the server it watches: watch --wait).
	FirstWait time.Duration

	// PingInterval is how often the client pings (default 20 s); a ping not
	// answered within PingTimeout (default 15 s) marks the connection dead.
	PingInterval time.Duration
	PingTimeout  time.Duration
	// CheckInterval is how often the conversation is checked over REST while
	// the socket is open (default 30 s): a deleted conversation's socket
	// goes silent instead of closing, and only REST says "not found".
	CheckInterval time.Duration

	// Coalesce is how long events gather before a Batch is handed over
	// (default 16 ms, about one frame).
	Coalesce time.Duration
	// GatherReads, when positive, is how long a socket lets its frames
	// gather in the kernel between two reads (default off: each frame is
	// read as it comes). A fleet streaming many busy conversations sets
	// it: one read, one wake-up per gathering instead of per frame, for at
	// most this much more delay.
	GatherReads time.Duration
	// ReconcileSlack widens the REST reconcile after a reconnect back from
	// the resume anchor (default 2 s), to catch an event whose frame was
	// overtaken by a newer one just before the connection dropped.
	ReconcileSlack time.Duration
	// LegacySocket keeps the watch on /sockets/events even where the
	// server offers the session socket (sessionsocket.go).
	LegacySocket bool
	// OrphanWait is how long an event whose parent_id names an event not
	// yet delivered is held back for its parent (default 5 s): frames
	// overtaken on a reconnect arrive meanwhile. One whose parent never
	// comes is then delivered with a warning.
	OrphanWait time.Duration
}

// withDefaults fills zero fields and turns negative ones into "off" (0).
func (o WatchOptions) withDefaults() WatchOptions {
	def := func(d *time.Duration, v time.Duration) {
		switch {
		case *d == 0:
			*d = v
		case *d < 0:
			*d = 0
		}
	}
	def(&o.BaseBackoff, defaultBaseBackoff)
	def(&o.MaxBackoff, defaultMaxBackoff)
	def(&o.PingInterval, defaultPingInterval)
	def(&o.PingTimeout, defaultPingTimeout)
	def(&o.CheckInterval, defaultCheckInterval)
	def(&o.Coalesce, defaultCoalesce)
	def(&o.ReconcileSlack, defaultReconcileSlack)
	def(&o.OrphanWait, defaultOrphanWait)
	if o.MaxBackoff < o.BaseBackoff {
		o.MaxBackoff = o.BaseBackoff
	}
	if o.PingTimeout == 0 {
		o.PingTimeout = defaultPingTimeout
	}
	if o.Jitter == nil {
		o.Jitter = equalJitter
	}
	return o
}
