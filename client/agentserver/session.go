package agentserver

import (
	"context"
	"fmt"
	"time"

	"github.com/coder/websocket"

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

// connection is one socket connection of a watch, from dial to its end:
// the channels its goroutines report on and what it has learned so far.
// Its methods run on the watch goroutine alone, one per kind of report, so
// none of its state needs a lock.
type connection struct {
	w   *watcher
	ctx context.Context // the connection's own, cancelled when it ends

	reconnect bool
	// anchorTS and anchorAt are the resume anchor as the socket was
	// opened; from is the last point the REST history confirmed.
	anchorTS string
	anchorAt time.Time
	from     string

	frames   chan frame
	pong     chan struct{}
	dead     chan error
	check    <-chan time.Time
	checked  chan error
	checking bool

	rec reconcileState
	// held is a reconnect's terminal first frame, held until the
	// reconcile has delivered what the dropped connection missed.
	held     *model.Event
	probe    sinceProbe
	first    bool
	wentLive bool
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
	mode := resendAll
	if w.feat.since && anchorTS != "" {
		mode = resendSince
	}
	ws, err := w.c.dialSocket(sctx, w.c.socketURL(w.id, mode, anchorTS), !w.feat.firstFrameAuth, w.opts.GatherReads)
	if err != nil {
		return false, err
	}
	defer ws.CloseNow()
	w.opened = true
	w.c.log.Info("agent-server socket open", "conversation", w.id, "since", mode == resendSince, "reconnect", reconnect)

	c := &connection{
		w: w, ctx: sctx, reconnect: reconnect,
		anchorTS: anchorTS, anchorAt: anchorAt, from: w.confirmed,
		frames:  make(chan frame, 256),
		pong:    make(chan struct{}, 1),
		dead:    make(chan error, 1),
		checked: make(chan error, 1),
		// After a reconnect the REST reconcile covers [confirmed − slack,
		// first new event + slack): the events the previous connection
		// should have delivered and those emitted while the socket was
		// down. Everything from the first new event on comes over the
		// socket itself. It starts from the last confirmed point, not the
		// newest anchor, because a connection can die after a live frame
		// overtook replayed ones: the anchor then lies past events that
		// never arrived.
		rec:   reconcileState{pending: reconnect, merged: make(chan reconciled, 1)},
		probe: sinceProbe{active: mode == resendSince},
		first: true,
	}
	defer c.stopTimers()
	c.start(ws)
	if w.opts.CheckInterval > 0 {
		t := time.NewTicker(w.opts.CheckInterval)
		defer t.Stop()
		c.check = t.C
	}
	err = c.run(ctx)
	return c.wentLive, err
}

// start runs the connection's reader and keepalive goroutines.
func (c *connection) start(ws *websocket.Conn) {
	go readFrames(c.ctx, c.w.c, ws, c.frames, c.w.c.eventFrame)
	go keepAlive(c.ctx, ws, c.w.opts.PingInterval, c.w.opts.PingTimeout,
		func() { notify(c.pong, struct{}{}) }, func(e error) { notify(c.dead, e) })
}

// stopTimers stops the quiet-reconcile timer when one runs.
func (c *connection) stopTimers() {
	if c.rec.timer != nil {
		c.rec.timer.Stop()
	}
}

// run waits for the connection's reports and handles each in turn, until
// one ends the connection (a non-nil error) or ctx, the watch's, ends.
func (c *connection) run(ctx context.Context) error {
	for {
		var err error
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err = <-c.dead:
			return err
		case <-c.pong:
			c.goLive()
		case <-c.rec.quiet:
			c.startReconcile("")
		case now := <-c.w.orphansDue():
			c.w.releaseOrphans(now.Add(-c.w.opts.OrphanWait).Add(time.Nanosecond))
		case f := <-c.frames:
			err = c.onFrame(f)
		case r := <-c.rec.merged:
			err = c.onReconciled(r)
		case <-c.check:
			c.startCheck()
		case e := <-c.checked:
			err = c.onChecked(e)
		}
		if err != nil {
			return err
		}
	}
}

// startReconcile starts the reconcile, once, over everything from the last
// confirmed point up to until ("" for no bound).
func (c *connection) startReconcile(until string) {
	if !c.rec.pending {
		return
	}
	c.rec.pending = false
	c.rec.quiet = nil
	go c.w.reconcile(c.ctx, c.from, until, c.rec.merged)
}

// goLive marks the connection live, once: the first frame or pong proves
// the server is there. A reconnect that stays quiet reconciles after
// quietReconcileDelay.
func (c *connection) goLive() {
	if c.wentLive {
		return
	}
	c.wentLive = true
	c.w.q.conn(model.ConnState{Phase: model.PhaseLive})
	if c.rec.pending {
		c.rec.timer = time.NewTimer(quietReconcileDelay)
		c.rec.quiet = c.rec.timer.C
	}
}

// releaseHeld delivers the held terminal snapshot, if any.
func (c *connection) releaseHeld() {
	if c.held != nil {
		c.w.deliverAnchored(false, *c.held)
		c.held = nil
	}
}

// onFrame handles one frame read from the socket, or the reader's end.
func (c *connection) onFrame(f frame) error {
	w := c.w
	if f.err != nil {
		return c.onReadEnd(f)
	}
	c.goLive()
	if f.bad > 0 {
		w.q.warn(fmt.Sprintf("skipped a socket frame that is not a JSON object (%d bytes)", f.bad))
		return nil
	}
	subscribeFrame := subscribeSnapshot(f.ev, c.first)
	var newer []model.Event
	if c.first && !c.reconnect {
		// The server subscribes the socket before it builds its snapshot
		// and before it replays the events since the anchor, so live
		// frames can overtake both: events persisted after the history
		// loaded would show after newer ones. Any frame proves the
		// subscription is in place, so the server's log read now holds
		// every event the socket will not send live.
		var asOf time.Time
		if subscribeFrame && !terminalSnapshot(f.ev) {
			asOf = f.ev.Time
		}
		var err error
		if newer, err = w.catchUp(c.ctx, c.anchorTS, asOf); err != nil {
			if _, final := classify(err); final {
				return err
			}
			w.c.log.Warn("catching up over REST failed", "conversation", w.id, "error", redactKey(err.Error(), w.c.key))
		}
	}
	c.first = false
	if su, ok := f.ev.Body.(*model.StateUpdate); ok && subscribeFrame {
		// The server's state as the socket subscribed, not an event of
		// its log: a recording must not hold it.
		su.Subscribe = true
	}
	if subscribeFrame && terminalSnapshot(f.ev) {
		held, err := c.onTerminalSnapshot(f.ev)
		if held || err != nil {
			return err
		}
	}
	if !subscribeFrame && model.Persisted(f.ev) {
		if err := c.onPersisted(f.ev); err != nil {
			return err
		}
	}
	w.deliverAnchored(!subscribeFrame, f.ev)
	w.deliver(newer...)
	return nil
}

// onReadEnd handles the reader's last frame: the error that ended it, with
// a stand-in for an event it could not read.
func (c *connection) onReadEnd(f frame) error {
	if f.unreadable != nil && (f.unreadableOf == "" || !c.w.seenBefore(f.unreadableOf)) {
		// Not anchored: the event itself never arrived.
		c.w.deliverAnchored(false, *f.unreadable)
	}
	select {
	case e := <-c.dead: // the keepalive closed it; say why
		return e
	default:
	}
	return f.err
}

// onTerminalSnapshot handles a first frame saying the conversation has
// ended. The server pushes its snapshot before it replays what the history
// (or, on a reconnect, the connection that dropped) missed: a terminal one
// delivered first would end a headless watch without the conversation's
// last events. It reports whether the snapshot is held for later.
func (c *connection) onTerminalSnapshot(ev model.Event) (held bool, err error) {
	if c.reconnect && c.rec.pending {
		// The reconcile fetches them: start it now, over everything since
		// the last confirmed point, and hold the snapshot until it has
		// merged. The socket's own frames keep flowing meanwhile.
		c.held = &ev
		c.startReconcile("")
		return true, nil
	}
	if !c.reconnect {
		return false, nil // the first frame caught up over REST already
	}
	// A reconnect whose reconcile has run: fetch them over REST, then go on.
	if _, err := c.w.catchUp(c.ctx, c.anchorTS, time.Time{}); err != nil {
		if _, final := classify(err); final {
			return false, err
		}
		c.w.c.log.Warn("catching up over REST failed", "conversation", c.w.id, "error", redactKey(err.Error(), c.w.c.key))
	}
	return false, nil
}

// onPersisted weighs an event of the server's log as it arrives: evidence
// for or against since-replay, and the first new one bounds a pending
// reconcile, which runs before that event is delivered.
func (c *connection) onPersisted(ev model.Event) error {
	if c.probe.active {
		// Only the replayed boundary (at or before the anchor) proves the
		// server honours since; a new event that a concurrent REST
		// reconcile has already delivered proves nothing.
		c.w.judgeSince(&c.probe, !ev.Time.After(c.anchorAt))
	}
	if !c.rec.pending || c.w.seenBefore(ev.ID) {
		return nil
	}
	// The first new event bounds the gap. Seen frames (a replayed
	// boundary, stale state updates) say nothing. It need not be the
	// oldest the connection will bring: the server subscribes the socket
	// before it replays, so a live frame can overtake the replay of what
	// the dropped connection missed. The reconcile therefore runs here,
	// on the watch goroutine, and delivers the gap (up to this event and
	// the slack past it) before this event is.
	until := c.anchorTS
	if ev.Time.After(c.anchorAt) {
		until = eventTimestamp(ev)
	}
	c.rec.pending, c.rec.quiet = false, nil
	out := make(chan reconciled, 1)
	c.w.reconcile(c.ctx, c.from, until, out)
	return c.onReconciled(<-out)
}

// onReconciled merges the reconcile's events and releases a held snapshot.
// A final failure ends the connection; any other is logged.
func (c *connection) onReconciled(r reconciled) error {
	if r.err != nil {
		if _, final := classify(r.err); final {
			return r.err
		}
		c.w.c.log.Warn("reconcile over REST failed", "conversation", c.w.id, "error", redactKey(r.err.Error(), c.w.c.key))
		c.releaseHeld()
		return nil
	}
	c.w.deliver(r.events...)
	// Everything before this connection's anchor is now confirmed over
	// REST; what follows is this connection's to deliver.
	c.w.confirmed = c.anchorTS
	c.releaseHeld()
	return nil
}

// startCheck asks the server, off the watch goroutine, whether the
// conversation still exists, unless a check is already running.
func (c *connection) startCheck() {
	if c.checking {
		return
	}
	c.checking = true
	go func() {
		info, err := c.w.c.Conversation(c.ctx, c.w.id)
		if err == nil {
			c.w.reportRuntime(c.ctx, info)
		}
		c.checked <- err
	}()
}

// onChecked handles a check's answer: a final failure (the conversation is
// gone, the key no longer valid) ends the connection.
func (c *connection) onChecked(err error) error {
	c.checking = false
	if _, final := classify(err); final {
		return err
	}
	if err != nil {
		c.w.c.log.Debug("conversation check failed", "conversation", c.w.id, "error", redactKey(err.Error(), c.w.c.key))
	}
	return nil
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

// subscribeSnapshot reports whether ev is the state the server sends as a
// socket subscribes: a full_state snapshot (wherever it comes, as live
// events published while the server builds it can precede it), or, as the
// first frame, the per-field execution_status=idle of a conversation whose
// service is not active. A per-field update that is not first is a live
// event of the server's log.
func subscribeSnapshot(ev model.Event, first bool) bool {
	u, ok := ev.Body.(*model.StateUpdate)
	if !ok {
		return false
	}
	if u.FullState {
		return true
	}
	return first && u.Key == "execution_status" && u.ExecutionStatus == model.StatusIdle
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
// the socket would replay only after the snapshot. With asOf set (the time
// of a subscribe frame that is not terminal) it returns, undelivered, the
// events stamped at or after that moment: the run went on between the
// frame and this read, so they come after the frame, or the frame's older
// state (idle before the run started) would stand as the latest. An event
// of the frame's very moment counts as newer: a replaying server stamps a
// snapshot with the time of the event it has yet to send.
func (w *watcher) catchUp(ctx context.Context, anchorTS string, asOf time.Time) ([]model.Event, error) {
	q := eventQuery{}
	if anchorTS != "" {
		q.Since = anchorTS
		if s, ok := shiftTimestamp(anchorTS, w.opts.ReconcileSlack); ok {
			q.Since = s
		}
	}
	var newer []model.Event
	err := w.c.eachEventPage(ctx, w.id, q, func(page []model.Event) error {
		split := len(page)
		if len(newer) > 0 {
			split = 0
		} else if !asOf.IsZero() {
			for i, ev := range page {
				if !ev.Time.IsZero() && !ev.Time.Before(asOf) {
					split = i
					break
				}
			}
		}
		w.deliver(page[:split]...)
		newer = append(newer, page[split:]...)
		return nil
	})
	return newer, err
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
