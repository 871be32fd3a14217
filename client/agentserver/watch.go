package agentserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"ohwatch/model"
)

// Watch follows a conversation live until ctx ends or the watch fails for
// good, and returns the stream of batches; the channel is closed when the
// watch ends.
//
// It loads the history over REST first, then opens the event socket asking
// only for events at or after the newest one already seen
// (resend_mode=since), and keeps that anchor moving as events arrive. Every
// event is delivered once (deduplicated by id), in the order received. A
// dropped connection is retried with jittered exponential backoff; after
// each reconnect the history is reconciled over REST, and events missed
// while away are merged in REST order. Authentication failures and a
// missing conversation are final. Connection changes arrive as batches with
// Conn set; a final failure carries Final and a Code (CodeAuth,
// CodeNotFound, CodeConnect).
func (c *Client) Watch(ctx context.Context, id string, opts WatchOptions) <-chan model.Batch {
	opts = opts.withDefaults()
	w := &watcher{
		c:       c,
		id:      id,
		opts:    opts,
		q:       newQueue(opts.Coalesce),
		seen:    make(map[string]struct{}),
		feat:    modernFeatures(),
		backoff: backoff{base: opts.BaseBackoff, max: opts.MaxBackoff, jitter: opts.Jitter},
		cursor:  seqCursor{contiguous: -1},
	}
	for _, id := range opts.Seen {
		w.seen[id] = struct{}{}
	}
	out := make(chan model.Batch)
	go w.q.send(ctx, out)
	go w.run(ctx)
	return out
}

// watcher is the state of one Watch. Only its run goroutine touches it.
type watcher struct {
	c       *Client
	id      string
	opts    WatchOptions
	q       *queue
	seen    map[string]struct{}
	anchor  anchor
	feat    serverFeatures
	backoff backoff
	// sinceStrikes counts consecutive since-connections whose first events
	// were all new: a server that ignored after_timestamp.
	sinceStrikes int
	// confirmed is the timestamp up to which every event is known to have
	// been delivered (checked over REST); reconciles start there.
	confirmed string
	// opened is set once a socket has opened: the server and the way to
	// its sockets are there, so a drop after it is retried under
	// MaxAttempts, not FirstAttempts, even before any frame came.
	opened bool
	// delivered counts the new persisted events delivered so far: a
	// connection that ends without adding to it made no progress.
	delivered int
	// orphans are events held back until their parent is delivered
	// (orphans.go); orphanDue fires when the oldest has waited long enough.
	orphans   orphanage
	orphanDue *time.Timer
	// orphanArmed is the arrival orphanDue is set for.
	orphanArmed time.Time
	// noRuntimeRoute is set once the server showed it has no runtime
	// status route (runtime.go), so a 1011 close does not ask again.
	noRuntimeRoute atomic.Bool
	// sess is whether the session socket serves the watch, cursor what it
	// holds of the server's log and newestDurable the newest time of an
	// event it delivered (sessionsocket.go).
	sess          sessionMode
	cursor        seqCursor
	newestDurable time.Time
}

// sinceProbeEvents is how many persisted events of a since-connection are
// examined for a replayed (already seen) one before the server is judged
// to ignore after_timestamp; two such connections in a row switch the
// watch to resend_mode=all.
const (
	// runtimeCloseGiveUp is how many 1011 closes in a row, none bringing an
	// event, end the watch: with the backoff's 1, 2, 4 and 8 s between them
	// that is within about 15 s, time for a runtime that was starting.
	runtimeCloseGiveUp = 5
	sinceProbeEvents   = 16
	sinceStrikeLimit   = 2
)

// run is the watch's life: probe the server, load history, then connect
// and reconnect until a final failure or the end of ctx.
func (w *watcher) run(ctx context.Context) {
	defer w.q.finish()
	defer w.releaseOrphans(time.Time{})
	w.q.conn(model.ConnState{Phase: model.PhaseConnecting})
	began := time.Now()
	attempt := 0
	probed, historyLoaded, reconnect, everLive := false, false, false, false
	// The previous failure, and how many times in a row it ended a
	// connection that brought nothing new: a failure that repeats so is
	// not cured by going live, so it does not reset the backoff.
	lastReason, repeats := "", 0
	for {
		if !probed {
			if probed = w.probe(ctx); probed {
				// What the server says of the runtime and the archive,
				// once now and at each check.
				info, _ := w.c.Conversation(ctx, w.id)
				w.reportRuntime(ctx, info)
			}
		}
		var err error
		wentLive := false
		before := w.delivered
		switch {
		case w.usesSessionSocket():
			// The socket replays the whole log itself, each event with
			// its seq: no REST history first.
			wentLive, err = w.sessionSocket(ctx)
			if errors.Is(err, errNoSessionSocket) {
				w.sess = sessionNo
				w.c.log.Info("no session socket; using /sockets/events", "conversation", w.id)
				continue
			}
		default:
			if !historyLoaded {
				if err = w.loadHistory(ctx); err == nil {
					historyLoaded = true
				}
			}
			if historyLoaded {
				wentLive, err = w.session(ctx, reconnect)
				reconnect = true
			}
		}
		if ctx.Err() != nil {
			return
		}
		reason := redactKey(describeEnd(err), w.c.key)
		if reason == lastReason && w.delivered == before {
			repeats++
		} else {
			lastReason, repeats = reason, 1
		}
		if wentLive {
			everLive = true
			if repeats == 1 {
				attempt = 0
			}
		}
		if code, final := classify(err); final {
			w.lost(code, reason)
			return
		}
		if websocket.CloseStatus(err) == closeInternal {
			// Retried a few times, since a runtime may be starting, but
			// not for ever: the runtime route says when it will not.
			more, hopeless := w.runtimeWords(ctx)
			if hopeless || repeats >= runtimeCloseGiveUp {
				w.lost(CodeClosed, fmt.Sprintf("gave up after %d attempts: %s%s", repeats, reason, more))
				return
			}
		}
		if isOversize(err) && repeats >= oversizeGiveUp {
			// The same event will be there on every reconnect.
			w.lost(CodeConnect, fmt.Sprintf("gave up after %d attempts: %s", repeats, reason))
			return
		}
		attempt++
		limit := w.opts.MaxAttempts
		first := !everLive && !w.opened
		switch {
		case first && w.opts.FirstWait > 0:
			limit = 0
			if time.Since(began) >= w.opts.FirstWait {
				w.lost(CodeConnect, fmt.Sprintf("%s (waited %s)", reason, w.opts.FirstWait))
				return
			}
		case first && w.opts.FirstAttempts > 0:
			limit = w.opts.FirstAttempts
		}
		if limit > 0 && attempt > limit {
			w.lost(CodeConnect, reason)
			return
		}
		wait := w.backoff.delay(attempt)
		w.c.log.Warn("agent-server connection lost; retrying", "conversation", w.id,
			"attempt", attempt, "retry_in", wait, "reason", reason)
		w.q.conn(model.ConnState{Phase: model.PhaseReconnecting, Attempt: attempt, RetryIn: wait, Reason: reason})
		if !sleep(ctx, wait) {
			return
		}
	}
}

// lost ends the watch with a final failure.
func (w *watcher) lost(code, reason string) {
	w.c.log.Error("agent-server watch ended", "conversation", w.id, "code", code, "reason", reason)
	w.q.conn(model.ConnState{Phase: model.PhaseLost, Final: true, Code: code, Reason: reason})
}

// classify decides whether a failure is final, and which kind it is.
func classify(err error) (code string, final bool) {
	if code, final := closeClass(err); final {
		return code, true
	}
	switch {
	case errors.Is(err, ErrAuth):
		return CodeAuth, true
	case errors.Is(err, ErrNotFound):
		return CodeNotFound, true
	}
	return "", false
}

// probe reads /server_info to learn which resume features the server has,
// and reports whether the server answered (an unreachable server is asked
// again on the next attempt). It is best effort: a server without the
// route is assumed current.
func (w *watcher) probe(ctx context.Context) bool {
	info, err := w.c.ServerInfo(ctx)
	if err != nil {
		w.c.log.Debug("server_info unavailable; assuming a current server", "error", redactKey(err.Error(), w.c.key))
		return !errors.Is(err, ErrConnect)
	}
	w.feat = featuresOf(info.Version)
	w.c.log.Info("agent-server", "version", info.Version, "sdk_version", info.SDKVersion,
		"since", w.feat.since, "first_frame_auth", w.feat.firstFrameAuth)
	return true
}

// loadHistory delivers the conversation's history over REST, page by page,
// so a long history starts showing before it has all arrived.
func (w *watcher) loadHistory(ctx context.Context) error {
	return w.c.eachEventPage(ctx, w.id, eventQuery{}, func(evs []model.Event) error {
		w.deliver(evs...)
		return nil
	})
}

// deliver queues the events not seen before, in order, and advances the
// resume anchor.
func (w *watcher) deliver(evs ...model.Event) { w.deliverAnchored(true, evs...) }

// deliverAnchored is deliver with the anchor update optional: the frame a
// socket sends on subscribing (a full_state, or a per-field
// execution_status=idle for an inactive conversation) is made up on the
// spot and never persisted, so it must not move the resume point.
func (w *watcher) deliverAnchored(anchored bool, evs ...model.Event) {
	fresh := make([]model.Event, 0, len(evs))
	for _, ev := range evs {
		if ev.ID != "" {
			if _, dup := w.seen[ev.ID]; dup || w.orphans.has(ev.ID) {
				continue
			}
		}
		if w.waits(&ev) {
			w.orphans.hold(ev, time.Now(), anchored)
			w.armOrphans()
			continue
		}
		fresh = w.accept(fresh, ev, anchored)
	}
	w.q.events(fresh)
}

// accept delivers ev, then the events held for it, each followed by its
// own held children (depth first, in the order they arrived). It walks
// with a stack of its own: behind a missing parent a whole run can wait,
// one event per level.
func (w *watcher) accept(fresh []model.Event, ev model.Event, anchored bool) []model.Event {
	stack := []heldEvent{{ev: ev, anchored: anchored}}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		fresh = w.acceptOne(fresh, h.ev, h.anchored)
		if h.ev.ID != "" {
			kids := w.orphans.children(h.ev.ID)
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, kids[i])
			}
		}
	}
	return fresh
}

// acceptOne delivers ev alone.
func (w *watcher) acceptOne(fresh []model.Event, ev model.Event, anchored bool) []model.Event {
	if ev.ID != "" {
		// The decoded id may share memory with the raw frame; a copy
		// keeps the set from pinning every frame ever received.
		w.seen[strings.Clone(ev.ID)] = struct{}{}
	}
	if anchored {
		w.anchor.observe(ev)
		w.delivered++
	}
	if w.opts.OnFullState != nil && isFullState(ev) {
		w.opts.OnFullState(ev)
	}
	return append(fresh, ev)
}

// releaseOrphans delivers the events held since before cutoff (every one
// for a zero cutoff) whose parent never came, each with a warning, and
// arms the timer for the rest.
func (w *watcher) releaseOrphans(cutoff time.Time) {
	w.orphanArmed = time.Time{} // the timer has fired (or the watch ends): set it afresh
	var fresh []model.Event
	for _, h := range w.orphans.stale(cutoff) {
		w.q.warn(orphanWarning(h.ev))
		fresh = w.accept(fresh, h.ev, h.anchored)
	}
	w.q.events(fresh)
	w.armOrphans()
}

// armOrphans sets orphanDue to fire when the oldest held event has waited
// OrphanWait; it is stopped when nothing is held.
func (w *watcher) armOrphans() {
	oldest, ok := w.orphans.oldest()
	if !ok {
		if w.orphanDue != nil {
			w.orphanDue.Stop()
		}
		w.orphanArmed = time.Time{}
		return
	}
	if w.orphanDue != nil && oldest.Equal(w.orphanArmed) {
		return // already set for it: holding more behind it changes nothing
	}
	w.orphanArmed = oldest
	d := time.Until(oldest.Add(w.opts.OrphanWait))
	if w.orphanDue == nil {
		w.orphanDue = time.NewTimer(d)
		return
	}
	w.orphanDue.Reset(d)
}

// orphansDue is the channel that fires when a held event has waited long
// enough; nil (never) when nothing is held.
func (w *watcher) orphansDue() <-chan time.Time {
	if w.orphanDue == nil || w.orphans.n == 0 {
		return nil
	}
	return w.orphanDue.C
}

// seenBefore reports whether an event id was already delivered.
func (w *watcher) seenBefore(id string) bool {
	_, ok := w.seen[id]
	return ok
}

// sleep waits d or until ctx ends; it reports whether the wait completed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
