package agentserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"ohwatch/model"
)

// The session socket, /sockets/session/{id} (upstream openhands-agent-server
// session_socket.py and session_protocol.py, PR #4807, SDK 1.45): every
// frame is an envelope, and every event of the server's log comes as
// durable{seq, event} with seq its index in the log. A watch that holds
// every seq up to N resumes with ?after_seq=N and is sent exactly what
// follows, so nothing is lost or sent twice without the timestamp anchor,
// the REST reconcile and the since probe the legacy socket needs
// (session.go). Live durable frames can arrive out of seq order (13, 15,
// 14: the state update a message's saving triggers is published first), so
// the watch delivers in seq order and resumes from the highest contiguous
// seq it holds, never the highest seen.

// sessionMode is whether the watch uses the session socket.
type sessionMode int

const (
	// sessionUntried: the server may have it; the first connection tries.
	sessionUntried sessionMode = iota
	// sessionYes: the server has it: a session socket sent a frame.
	sessionYes
	// sessionNo: it refused the route; the legacy socket serves the watch.
	sessionNo
)

// errNoSessionSocket is a session socket refused at the handshake by a
// server that has none (Starlette answers a WebSocket route it lacks 403).
// The version /server_info reports does not decide it: the kit's 1.43.1
// serves the socket when asked to, and a proxy may not pass it. Nor can
// the 403 be a rejected key: the key goes in the first frame, and a wrong
// one is closed with 4001 after the handshake.
var errNoSessionSocket = errors.New("the server has no session socket")

// sessionHeldMax bounds the durable frames held behind a gap; past it the
// connection is ended and resumed from the cursor, which the server fills.
const sessionHeldMax = 4096

// envelope is one session socket frame (session_protocol.py SessionFrame).
// Fields a type does not use are left out by the server.
type envelope struct {
	Type       string          `json:"type"`
	Seq        *int            `json:"seq"`
	Event      json.RawMessage `json:"event"`
	FromSeq    *int            `json:"from_seq"`
	ThroughSeq *int            `json:"through_seq"`
	Code       string          `json:"code"`
	Detail     string          `json:"detail"`
}

// sessionFrame decodes a session socket message into its envelope and, for
// durable and transient frames, the event it carries.
func (c *Client) sessionFrame(data []byte) frame {
	if f, ok := c.durableFast(data); ok {
		return f
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return frame{bad: len(data)}
	}
	f := frame{env: &env}
	switch env.Type {
	case "durable", "transient":
		if env.Type == "durable" && (env.Seq == nil || *env.Seq < 0) {
			return frame{bad: len(data)}
		}
		ev, err := c.decodeEvent(env.Event)
		if err != nil {
			return frame{bad: len(data)}
		}
		f.ev = ev
		env.Event = nil
	}
	return f
}

// durablePrefix and durableEvent frame a durable event as upstream's
// model_dump_json writes one (its fields in declaration order, no spaces).
const (
	durablePrefix = `{"type":"durable","seq":`
	durableEvent  = `,"event":`
)

// durableFast reads a durable frame in upstream's exact layout without a
// general JSON pass over the envelope, which cost more than decoding the
// event itself; any other layout is left to the general reader.
func (c *Client) durableFast(data []byte) (frame, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(durablePrefix))
	if !ok {
		return frame{}, false
	}
	n := 0
	for n < len(rest) && n < 10 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	seq, err := strconv.Atoi(string(rest[:n]))
	if n == 0 || err != nil {
		return frame{}, false
	}
	body, ok := bytes.CutPrefix(rest[n:], []byte(durableEvent))
	if !ok || len(body) < 2 || body[len(body)-1] != '}' {
		return frame{}, false
	}
	// What is left past the event is the envelope's closing brace, or
	// fields after it: then the event does not decode and the general
	// reader takes the frame.
	ev, err := c.decodeEvent(body[:len(body)-1])
	if err != nil {
		return frame{}, false
	}
	return frame{ev: ev, env: &envelope{Type: "durable", Seq: &seq}}, true
}

// sessionURL is the session socket's URL with the resume cursor: after_seq
// -1 asks for the whole log.
func (c *Client) sessionURL(id string, after int) string {
	u := c.wsURL("session", id)
	u.RawQuery = "after_seq=" + strconv.Itoa(after)
	return u.String()
}

// seqCursor is what a session watch holds of the server's log: every seq up
// to contiguous, and the durable frames that came past a gap.
type seqCursor struct {
	contiguous int // -1 before the first
	held       map[int]model.Event
}

// gapError ends a connection whose durable frames left a gap too long.
type gapError struct{ missing, held int }

func (e *gapError) Error() string {
	return fmt.Sprintf("the session socket skipped seq %d (%d later events held); resuming from it", e.missing, e.held)
}

// usesSessionSocket reports whether the next connection is a session
// socket: not when the server refused it, nor on servers that take the key
// only as a handshake header (older than 1.18.1, long before 1.45).
func (w *watcher) usesSessionSocket() bool {
	return !w.opts.LegacySocket && w.sess != sessionNo && w.feat.firstFrameAuth
}

// sessionConn is one session socket connection; its methods run on the
// watch goroutine.
type sessionConn struct {
	w        *watcher
	ctx      context.Context
	wentLive bool
	// through is the sync frame's through_seq: the replay is in once the
	// cursor reaches it (-1 for an empty log); synced once it came.
	through  int
	synced   bool
	gap      *time.Timer
	checking bool
	checked  chan error
}

// sessionSocket runs one session socket connection until it ends, resuming
// after the highest contiguous seq held, and reports whether it went live
// and why it ended.
func (w *watcher) sessionSocket(ctx context.Context) (bool, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ws, err := w.c.dialSocket(sctx, w.c.sessionURL(w.id, w.cursor.contiguous), false, w.opts.GatherReads)
	if err != nil {
		var de *dialError
		if w.sess == sessionUntried && errors.As(err, &de) && (de.status == http.StatusForbidden || de.status == http.StatusNotFound) {
			return false, errNoSessionSocket
		}
		return false, err
	}
	defer ws.CloseNow()
	w.opened = true
	w.c.log.Info("agent-server session socket open", "conversation", w.id, "after_seq", w.cursor.contiguous)

	frames := make(chan frame, 256)
	pong := make(chan struct{}, 1)
	dead := make(chan error, 1)
	go readFrames(sctx, w.c, ws, frames, w.c.sessionFrame)
	go keepAlive(sctx, ws, w.opts.PingInterval, w.opts.PingTimeout,
		func() { notify(pong, struct{}{}) }, func(e error) { notify(dead, e) })
	var check <-chan time.Time
	if w.opts.CheckInterval > 0 {
		t := time.NewTicker(w.opts.CheckInterval)
		defer t.Stop()
		check = t.C
	}
	c := &sessionConn{w: w, ctx: sctx, checked: make(chan error, 1)}
	defer c.stopGap()
	for {
		select {
		case <-ctx.Done():
			return c.wentLive, ctx.Err()
		case err := <-dead:
			return c.wentLive, err
		case <-pong:
			c.caughtUp()
		case now := <-w.orphansDue():
			w.releaseOrphans(now.Add(-w.opts.OrphanWait).Add(time.Nanosecond))
		case <-c.gapDue():
			return c.wentLive, &gapError{missing: w.cursor.contiguous + 1, held: len(w.cursor.held)}
		case f := <-frames:
			if err := c.onFrame(f, dead); err != nil {
				return c.wentLive, err
			}
		case <-check:
			c.startCheck()
		case err := <-c.checked:
			c.checking = false
			if _, final := classify(err); final {
				return c.wentLive, err
			}
		}
	}
}

// caughtUp goes live once the sync frame came and the replay it announced
// is delivered: as on the legacy socket, whose history comes over REST
// first, live means the conversation's past is in, so what follows is
// news (a fleet tells a new error from an old one by it).
func (c *sessionConn) caughtUp() {
	if c.synced && c.w.cursor.contiguous >= c.through {
		c.goLive()
	}
}

// goLive marks the connection live once, as the legacy socket does.
func (c *sessionConn) goLive() {
	if !c.wentLive {
		c.wentLive = true
		c.w.q.conn(model.ConnState{Phase: model.PhaseLive})
	}
}

// onFrame handles one frame, or the reader's end.
func (c *sessionConn) onFrame(f frame, dead <-chan error) error {
	w := c.w
	if f.err != nil {
		if f.unreadable != nil && (f.unreadableOf == "" || !w.seenBefore(f.unreadableOf)) {
			w.deliverAnchored(false, *f.unreadable)
		}
		select {
		case e := <-dead:
			return e
		default:
		}
		return f.err
	}
	// Any frame proves the server has the socket: a later 403 is the key.
	w.sess = sessionYes
	defer c.caughtUp()
	if f.bad > 0 || f.env == nil {
		w.q.warn(fmt.Sprintf("skipped a session socket frame that is not a valid envelope (%d bytes)", f.bad))
		return nil
	}
	switch f.env.Type {
	case "sync":
		c.synced, c.through = true, -1
		if t := f.env.ThroughSeq; t != nil {
			c.through = *t
		}
	case "durable":
		return c.onDurable(*f.env.Seq, f.ev)
	case "transient":
		c.onTransient(f.ev)
	case "error":
		w.q.warn("the server reported on the session socket: " + redactKey(joinNonEmpty(f.env.Code, f.env.Detail), w.c.key))
	}
	// item_started, delta and item_aborted are progress the durable
	// message restates, and a type this client does not know is ignored,
	// as the protocol asks.
	return nil
}

// onDurable delivers the events of the log in seq order: a frame past a gap
// is held until the gap fills, or, after OrphanWait, the connection is
// resumed from the gap.
func (c *sessionConn) onDurable(seq int, ev model.Event) error {
	cur := &c.w.cursor
	if seq <= cur.contiguous {
		return nil // replayed again: already delivered
	}
	if seq > cur.contiguous+1 {
		if cur.held == nil {
			cur.held = make(map[int]model.Event)
		}
		cur.held[seq] = ev
		if len(cur.held) > sessionHeldMax {
			return &gapError{missing: cur.contiguous + 1, held: len(cur.held)}
		}
		c.armGap()
		return nil
	}
	evs := []model.Event{ev}
	cur.contiguous = seq
	for {
		next, ok := cur.held[cur.contiguous+1]
		if !ok {
			break
		}
		delete(cur.held, cur.contiguous+1)
		evs = append(evs, next)
		cur.contiguous++
	}
	if len(cur.held) == 0 {
		c.stopGap()
	}
	c.w.deliver(evs...)
	for _, e := range evs {
		if e.Time.After(c.w.newestDurable) {
			c.w.newestDurable = e.Time
		}
	}
	return nil
}

// onTransient delivers an event that is not in the log: the snapshot a
// socket gets as it subscribes, marked so a recording does not hold it. It
// comes after the replay, so a snapshot older than an event already
// delivered (taken before the replay's last events) would state an older
// status as the latest: it is dropped.
func (c *sessionConn) onTransient(ev model.Event) {
	if su, ok := ev.Body.(*model.StateUpdate); ok {
		if !ev.Time.IsZero() && ev.Time.Before(c.w.newestDurable) {
			c.w.c.log.Debug("dropped a snapshot older than the log", "conversation", c.w.id)
			return
		}
		su.Subscribe = true
	}
	c.w.deliverAnchored(false, ev)
}

// armGap starts the gap's timer unless it runs.
func (c *sessionConn) armGap() {
	if c.gap == nil {
		c.gap = time.NewTimer(c.w.opts.OrphanWait)
	}
}

// stopGap stops the gap's timer.
func (c *sessionConn) stopGap() {
	if c.gap != nil {
		c.gap.Stop()
		c.gap = nil
	}
}

// gapDue fires when a gap has lasted OrphanWait; nil when there is none.
func (c *sessionConn) gapDue() <-chan time.Time {
	if c.gap == nil {
		return nil
	}
	return c.gap.C
}

// startCheck asks over REST whether the conversation still exists, as the
// legacy connection does.
func (c *sessionConn) startCheck() {
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
