package agentserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/coder/websocket"

	"ohwatch/model"
)

// Close codes the agent-server uses (protocol §7).
const (
	closeAuthFailed websocket.StatusCode = 4001
	closeNotFound   websocket.StatusCode = 4004
	closeTryAgain   websocket.StatusCode = 1013
	// A Docker-runtime server (upstream docker_runtime/routers.py
	// _proxy_socket, PR #3403) closes with 1008 for a conversation it does
	// not know and 1011 when the conversation's runtime cannot start (an
	// archived one's included), both without a reason.
	closePolicy   websocket.StatusCode = 1008
	closeInternal websocket.StatusCode = 1011
)

// socketReadLimit is the largest frame accepted. The library's default is
// 32 KiB, but a full_state snapshot or an observation with a screenshot
// reaches megabytes.
const socketReadLimit = 64 << 20

// resendMode says which history the socket should replay on connect.
type resendMode int

const (
	// resendSince replays events with timestamp >= the anchor (v1.15+).
	resendSince resendMode = iota
	// resendAll replays every persisted event (older servers, or an empty
	// anchor); duplicates are dropped by id.
	resendAll
)

// wsURL derives ws(s)://host[/prefix]/sockets/{socket}/{id} from the base
// URL. The key is never part of it.
func (c *Client) wsURL(socket, id string) url.URL {
	u := *c.base
	switch u.Scheme {
	case "https":
		u.Scheme = "wss"
	default:
		u.Scheme = "ws"
	}
	u.Path = c.base.Path + "/sockets/" + socket + "/" + url.PathEscape(id)
	return u
}

// socketURL is the legacy event socket's URL, /sockets/events/{id}, with
// the resend parameters.
func (c *Client) socketURL(id string, mode resendMode, anchor string) string {
	u := c.wsURL("events", id)
	q := url.Values{}
	if mode == resendSince && anchor != "" {
		q.Set("resend_mode", "since")
		q.Set("after_timestamp", anchor)
	} else {
		// resend_all is the pre-1.15 spelling; newer servers accept it as a
		// deprecated alias of resend_mode=all.
		q.Set("resend_mode", "all")
		q.Set("resend_all", "true")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// authFrame is the first-frame authentication message (v1.18.1+).
type authFrame struct {
	Type          string `json:"type"`
	SessionAPIKey string `json:"session_api_key"`
}

// dialError is a handshake that failed; status is the HTTP status when the
// server answered at all.
type dialError struct {
	status int
	err    error
}

// Error implements error.
func (e *dialError) Error() string {
	if e.status != 0 {
		return fmt.Sprintf("socket handshake: %d %s", e.status, http.StatusText(e.status))
	}
	return "socket handshake: " + e.err.Error()
}

// Unwrap exposes the handshake failure to errors.Is and errors.As.
func (e *dialError) Unwrap() error { return e.err }

// dialSocket opens the event socket and authenticates. headerAuth sends the
// key as a handshake header instead of a first frame, for servers older
// than first-frame auth; gather, when positive, is how long frames gather
// between two reads (WatchOptions.GatherReads).
func (c *Client) dialSocket(ctx context.Context, socketURL string, headerAuth bool, gather time.Duration) (*websocket.Conn, error) {
	opts := &websocket.DialOptions{HTTPClient: c.sockets, HTTPHeader: http.Header{}}
	if headerAuth && c.key != "" {
		opts.HTTPHeader.Set(sessionHeader, c.key)
	}
	dialCtx, gd := withGather(ctx, gather)
	if c.timeout > 0 {
		var cancel context.CancelFunc
		dialCtx, cancel = context.WithTimeout(dialCtx, c.timeout)
		defer cancel()
	}
	conn, resp, err := websocket.Dial(dialCtx, socketURL, opts)
	if err != nil {
		de := &dialError{err: errors.New(redactKey(unwrapURLError(err).Error(), c.key))}
		if resp != nil {
			de.status = resp.StatusCode
		}
		return nil, de
	}
	conn.SetReadLimit(c.readLimit)
	gd.start()
	if !headerAuth {
		frame, _ := json.Marshal(authFrame{Type: "auth", SessionAPIKey: c.key})
		if err := conn.Write(ctx, websocket.MessageText, frame); err != nil {
			conn.CloseNow()
			return nil, fmt.Errorf("sending the auth frame: %s", redactKey(err.Error(), c.key))
		}
	}
	return conn, nil
}

// unwrapURLError drops the *url.Error layer, which quotes the whole URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// frame is one decoded message read from the socket, or the error that
// ended the connection. A message that is not a JSON object has bad set to
// its length and no event.
type frame struct {
	ev  model.Event
	bad int
	err error
	// unreadable, with err, stands in for an event over the read limit;
	// unreadableOf is that event's own id ("" when unknown).
	unreadable   *model.Event
	unreadableOf string
	// env is a session socket's envelope (sessionsocket.go); nil on the
	// legacy socket, whose frames are the events themselves.
	env *envelope
}

// readFrames reads and decodes messages until the connection fails, sending
// each to out (and the final error last). Decoding here, off the watch
// goroutine, overlaps it with the watch's bookkeeping.
//
// The reads themselves are not cancelled through ctx: the session closes
// the connection when ctx ends, which ends a blocked read as well, while a
// cancellable context costs the library a context.AfterFunc set up and
// torn down per frame (5% of a busy fleet's CPU).
func readFrames(ctx context.Context, c *Client, conn *websocket.Conn, out chan<- frame, decode func([]byte) frame) {
	var buf bytes.Buffer
	reads := context.WithoutCancel(ctx)
	for {
		f, ok := readFrame(reads, c, conn, &buf, decode)
		if !ok {
			continue
		}
		select {
		case out <- f:
		case <-ctx.Done():
			return
		}
		if f.err != nil {
			return
		}
	}
}

// readFrame reads one message into the reusable buffer and decodes an
// exact-size copy of it: the event keeps its raw bytes for as long as the
// log lives, so they must not carry the slack of a growing buffer. It
// reports false for a message to skip (a control or unknown type).
func readFrame(ctx context.Context, c *Client, conn *websocket.Conn, buf *bytes.Buffer, decode func([]byte) frame) (frame, bool) {
	limit := c.readLimit
	typ, r, err := conn.Reader(ctx)
	if err != nil {
		return frame{err: err}, true
	}
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		if tooBig(err) {
			// What was read names the event for its placeholder.
			ev, of := unreadablePlaceholder(buf.Bytes(), limit)
			*buf = bytes.Buffer{}
			return frame{err: &oversizeError{limit: limit, cause: err}, unreadable: &ev, unreadableOf: of}, true
		}
		return frame{err: err}, true
	}
	if typ != websocket.MessageText && typ != websocket.MessageBinary {
		return frame{}, false
	}
	if buf.Cap() > socketBufferKeep {
		defer func() { *buf = bytes.Buffer{} }() // do not hold a huge frame's buffer
	}
	return decode(bytes.Clone(buf.Bytes())), true
}

// eventFrame decodes a legacy socket's message: the event itself.
func (c *Client) eventFrame(data []byte) frame {
	ev, err := c.decodeEvent(data)
	if err != nil {
		return frame{bad: len(data)}
	}
	return frame{ev: ev}
}

// socketBufferKeep is the largest read buffer kept between frames.
const socketBufferKeep = 1 << 20

// errNoPong is the cause recorded when a ping goes unanswered.
var errNoPong = errors.New("no pong")

// keepAlive pings every interval; a ping unanswered within timeout means a
// dead (or silently abandoned) connection, which is closed so the reader
// fails and the watch reconnects. It returns when ctx ends.
func keepAlive(ctx context.Context, conn *websocket.Conn, interval, timeout time.Duration, pong func(), dead func(error)) {
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, timeout)
		err := conn.Ping(pctx)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			dead(fmt.Errorf("%w within %s", errNoPong, timeout))
			conn.CloseNow()
			return
		}
		pong()
	}
}

// closeClass sorts the end of a connection into final failures (auth, not
// found) and everything else (retried).
func closeClass(err error) (code string, final bool) {
	switch websocket.CloseStatus(err) {
	case closeAuthFailed:
		return CodeAuth, true
	case closeNotFound:
		return CodeNotFound, true
	case closePolicy:
		// Refused for good: asking again gets the same answer.
		return CodeClosed, true
	}
	var de *dialError
	if errors.As(err, &de) {
		switch de.status {
		case http.StatusUnauthorized, http.StatusForbidden:
			return CodeAuth, true
		case http.StatusNotFound:
			return CodeNotFound, true
		}
	}
	return "", false
}

// describeEnd is the one-line human reason for the end of a connection.
func describeEnd(err error) string {
	if err == nil {
		return "connection ended"
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "connection dropped (no close frame)"
	}
	if s := websocket.CloseStatus(err); s != -1 {
		var ce websocket.CloseError
		reason := ""
		if errors.As(err, &ce) && ce.Reason != "" {
			reason = ": " + ce.Reason
		}
		switch s {
		case closeAuthFailed:
			return "authentication rejected (close 4001)" + reason
		case closeNotFound:
			return "conversation not found (close 4004)" + reason
		case closeTryAgain:
			return "server busy, try again later (close 1013)" + reason
		case closePolicy:
			return "the server refused to stream this conversation (close 1008, policy violation)" + reason
		case closeInternal:
			return "the server could not serve this conversation (close 1011, internal error; a Docker-runtime server: its runtime cannot start)" + reason
		}
		return fmt.Sprintf("closed by the server (%d)%s", int(s), reason)
	}
	return err.Error()
}
