package agentserver

import (
	"context"
	"fmt"
	"time"

	"ohwatch/model"
)

// quietReconcileDelay is how long a reconnected socket may stay without an
// event frame before the reconcile runs without an upper bound (a quiet
// conversation has a short tail).
const quietReconcileDelay = 250 * time.Millisecond

// reconciled is the result of a REST reconcile after a reconnect.
type reconciled struct {
	events []model.Event
	err    error
}

// session runs one socket connection until it ends, and reports whether it
// went live (which resets the reconnect backoff) and why it ended.
func (w *watcher) session(ctx context.Context, reconnect bool) (wentLive bool, err error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()

	anchorTS, anchorAt := w.anchor.timestamp(), w.anchor.at
	if !reconnect {
		// The REST history just loaded is complete up to the anchor.
		w.confirmed = anchorTS
	}
	from := w.confirmed
	mode := resendAll
	if w.feat.since && anchorTS != "" {
		mode = resendSince
	}
	conn, err := w.c.dialSocket(sctx, w.id, mode, anchorTS, !w.feat.firstFrameAuth)
	if err != nil {
		return false, err
	}
	defer conn.CloseNow()
	w.c.log.Info("agent-server socket open", "conversation", w.id, "since", mode == resendSince, "reconnect", reconnect)

	frames := make(chan frame, 256)
	go readFrames(sctx, conn, w.c.readLimit, frames)
	pong := make(chan struct{}, 1)
	dead := make(chan error, 1)
	go keepAlive(sctx, conn, w.opts.PingInterval, w.opts.PingTimeout,
		func() { notify(pong, struct{}{}) }, func(e error) { notify(dead, e) })

	var check <-chan time.Time
	if w.opts.CheckInterval > 0 {
		t := time.NewTicker(w.opts.CheckInterval)
		defer t.Stop()
		check = t.C
	}
	checked := make(chan error, 1)
	checking := false

	// After a reconnect the REST reconcile covers [confirmed − slack, first
	// new event + slack): the events the previous connection should have
	// delivered and those emitted while the socket was down. Everything
	// from the first new event on comes over the socket itself. It starts
	// from the last confirmed point, not the newest anchor, because a
	// connection can die after a live frame overtook replayed ones: the
	// anchor then lies past events that never arrived.
	rec := reconcileState{pending: reconnect, merged: make(chan reconciled, 1)}
	startReconcile := func(until string) {
		if !rec.pending {
			return
		}
		rec.pending = false
		rec.quiet = nil
		go w.reconcile(sctx, from, until, rec.merged)
	}
	goLive := func() {
		if wentLive {
			return
		}
		wentLive = true
		w.q.conn(model.ConnState{Phase: model.PhaseLive})
		if rec.pending {
			rec.timer = time.NewTimer(quietReconcileDelay)
			rec.quiet = rec.timer.C
		}
	}
	defer func() {
		if rec.timer != nil {
			rec.timer.Stop()
		}
	}()

	// heldSnapshot is a reconnect's terminal first frame, held until the
	// reconcile has delivered what the dropped connection missed.
	var heldSnapshot *model.Event
	releaseSnapshot := func() {
		if heldSnapshot != nil {
			w.deliverAnchored(false, *heldSnapshot)
			heldSnapshot = nil
		}
	}
	probe := sinceProbe{active: mode == resendSince}
	first := true
	for {
		select {
		case <-ctx.Done():
			return wentLive, ctx.Err()
		case e := <-dead:
			return wentLive, e
		case <-pong:
			goLive()
		case <-rec.quiet:
			startReconcile("")
		case now := <-w.orphansDue():
			w.releaseOrphans(now.Add(-w.opts.OrphanWait).Add(time.Nanosecond))
		case f := <-frames:
			if f.err != nil {
				if f.unreadable != nil && (f.unreadableOf == "" || !w.seenBefore(f.unreadableOf)) {
					// Not anchored: the event itself never arrived.
					w.deliverAnchored(false, *f.unreadable)
				}
				select {
				case e := <-dead: // the keepalive closed it; say why
					return wentLive, e
				default:
				}
				return wentLive, f.err
			}
			goLive()
			if f.bad > 0 {
				w.q.warn(fmt.Sprintf("skipped a socket frame that is not a JSON object (%d bytes)", f.bad))
				continue
			}
			subscribeFrame := first && f.ev.Kind == model.KindStateUpdate
			first = false
			if su, ok := f.ev.Body.(*model.StateUpdate); ok && subscribeFrame {
				// The server's state as the socket subscribed, not an
				// event of its log: a recording must not hold it.
				su.Subscribe = true
			}
			if subscribeFrame && terminalSnapshot(f.ev) {
				// The server pushes its snapshot before it replays what
				// the history (or, on a reconnect, the connection that
				// dropped) missed: a terminal one delivered first would
				// end a headless watch without the conversation's last
				// events.
				if reconnect && rec.pending {
					// The reconcile fetches them: start it now, over
					// everything since the last confirmed point, and hold
					// the snapshot until it has merged. The socket's own
					// frames keep flowing meanwhile.
					heldSnapshot = &f.ev
					startReconcile("")
					continue
				}
				// First connection: fetch them over REST, then go on.
				if err := w.catchUp(sctx, anchorTS); err != nil {
					if _, final := classify(err); final {
						return wentLive, err
					}
					w.c.log.Warn("catching up over REST failed", "conversation", w.id, "error", redact(err.Error(), w.c.key))
				}
			}
			if !subscribeFrame && model.Persisted(f.ev) {
				if probe.active {
					// Only the replayed boundary (at or before the anchor)
					// proves the server honours since; a new event that a
					// concurrent REST reconcile has already delivered
					// proves nothing.
					w.judgeSince(&probe, !f.ev.Time.After(anchorAt))
				}
				if rec.pending && !w.seenBefore(f.ev.ID) {
					// The first new event bounds the gap. Seen frames (a
					// replayed boundary, stale state updates) say nothing.
					until := anchorTS
					if f.ev.Time.After(anchorAt) {
						until = eventTimestamp(f.ev)
					}
					startReconcile(until)
				}
			}
			w.deliverAnchored(!subscribeFrame, f.ev)
		case r := <-rec.merged:
			if r.err != nil {
				if _, final := classify(r.err); final {
					return wentLive, r.err
				}
				w.c.log.Warn("reconcile over REST failed", "conversation", w.id, "error", redact(r.err.Error(), w.c.key))
				releaseSnapshot()
				continue
			}
			w.deliver(r.events...)
			// Everything before this connection's anchor is now confirmed
			// over REST; what follows is this connection's to deliver.
			w.confirmed = anchorTS
			releaseSnapshot()
		case <-check:
			if !checking {
				checking = true
				go func() { _, err := w.c.Conversation(sctx, w.id); checked <- err }()
			}
		case err := <-checked:
			checking = false
			if _, final := classify(err); final {
				return wentLive, err
			}
			if err != nil {
				w.c.log.Debug("conversation check failed", "conversation", w.id, "error", redact(err.Error(), w.c.key))
			}
		}
	}
}

// reconcileState tracks the one reconcile a reconnected session runs.
type reconcileState struct {
	pending bool
	timer   *time.Timer
	quiet   <-chan time.Time // fires when no event frame came soon enough
	merged  chan reconciled
}

// reconcile fetches, over REST and in the server's order, the events from
// the resume anchor (less the slack) up to until (plus the slack; no bound
// when empty); the watch merges those it has not seen. Not every server
// replays what was emitted while the socket was down, so this is what
// guarantees nothing is lost; the slack catches an event whose frame was
// overtaken by a newer one just before the drop.
func (w *watcher) reconcile(ctx context.Context, from, until string, out chan<- reconciled) {
	q := eventQuery{}
	if from != "" {
		q.Since = from
		if s, ok := shiftTimestamp(from, w.opts.ReconcileSlack); ok {
			q.Since = s
		}
	}
	if until != "" {
		if s, ok := shiftTimestamp(until, -w.opts.ReconcileSlack); ok {
			q.Until = s
		}
	}
	var evs []model.Event
	err := w.c.eachEventPage(ctx, w.id, q, func(page []model.Event) error {
		evs = append(evs, page...)
		return nil
	})
	w.c.log.Debug("reconciled over REST", "conversation", w.id, "events", len(evs))
	out <- reconciled{events: evs, err: err}
}

// terminalSnapshot reports whether ev is a state snapshot that says the
// conversation has ended (finished, error, stuck).
func terminalSnapshot(ev model.Event) bool {
	u, ok := ev.Body.(*model.StateUpdate)
	if !ok || !u.FullState {
		return false
	}
	switch u.ExecutionStatus {
	case model.StatusFinished, model.StatusError, model.StatusStuck:
		return true
	}
	return false
}

// catchUp delivers, before a terminal snapshot, the events persisted since
// the resume anchor (less the slack) that the watch has not seen: those
// the socket would replay only after the snapshot.
func (w *watcher) catchUp(ctx context.Context, anchorTS string) error {
	q := eventQuery{}
	if anchorTS != "" {
		q.Since = anchorTS
		if s, ok := shiftTimestamp(anchorTS, w.opts.ReconcileSlack); ok {
			q.Since = s
		}
	}
	return w.c.eachEventPage(ctx, w.id, q, func(page []model.Event) error {
		w.deliver(page...)
		return nil
	})
}

// eventTimestamp is an event's timestamp as the server wrote it.
func eventTimestamp(ev model.Event) string {
	a := anchor{at: ev.Time, raw: ev.Raw}
	return a.timestamp()
}

// sinceProbe watches the first persisted events of a since-connection for a
// replayed one.
type sinceProbe struct {
	active bool
	count  int
}

// judgeSince records one persisted event of a since-connection. A server
// that honours after_timestamp replays the anchor event itself first
// (timestamp >= anchor, the boundary included), so an event no newer than
// the anchor settles it; a run of only newer events is a strike, and
// repeated strikes switch to resend_mode=all.
func (w *watcher) judgeSince(p *sinceProbe, replayed bool) {
	if replayed {
		p.active = false
		w.sinceStrikes = 0
		return
	}
	p.count++
	if p.count < sinceProbeEvents {
		return
	}
	p.active = false
	w.sinceStrikes++
	if w.sinceStrikes >= sinceStrikeLimit && w.feat.since {
		w.feat.since = false
		w.c.log.Warn("the server ignores resend_mode=since; falling back to resend_mode=all", "conversation", w.id)
		w.q.warn("the server ignores resend_mode=since; reconnects will replay everything and drop duplicates")
	}
}

// notify sends v without blocking when a value is already pending.
func notify[T any](ch chan T, v T) {
	select {
	case ch <- v:
	default:
	}
}
