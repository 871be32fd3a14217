package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"ohwatch/model"
)

// Close codes of the agent-server's event socket (protocol §7).
const (
	closeAuthFailed    = 4001
	closeNotFound      = 4004
	closeTryAgainLater = 1013
	// closePolicyViolation and closeInternalError are a Docker-runtime
	// server's: an unknown conversation, a runtime that cannot start.
	closePolicyViolation = 1008
	closeInternalError   = 1011
)

// Socket limits: the largest client frame read, and the longest a frame
// write may take before the client is considered gone.
const (
	clientFrameLimit = 1 << 20
	writeTimeout     = 10 * time.Second
)

// errDropped ends a socket that a fault drops.
var errDropped = errors.New("dropped by fault injection")

// handleSocket serves GET /sockets/events/{id}, and the session socket
// /sockets/session/{id} with the same steps (session_socket.go): authentication (header or
// query key checked before the upgrade, first-frame auth after it), then
// the snapshot, the requested history and the live events.
func (s *Server) handleSocket(w http.ResponseWriter, r *http.Request) {
	authed := s.opts.Key == ""
	if key := presentedKey(r); key != "" && !authed {
		if !s.keyOK(key) {
			s.log.Warn("socket refused: wrong session key", "remote", r.RemoteAddr)
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		authed = true
	}
	r2, err := parseResend(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	session := r.PathValue("socket") == "session"
	if session {
		var ok bool
		if r2.afterSeq, ok = parseAfterSeq(r); !ok {
			http.Error(w, "after_seq: an integer expected", http.StatusBadRequest)
			return
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "server closed", http.StatusServiceUnavailable)
		return
	}
	s.sockets.Add(1)
	s.mu.Unlock()
	defer s.sockets.Done()

	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.log.Warn("socket upgrade failed", "remote", r.RemoteAddr, "err", err)
		return
	}
	conn.SetReadLimit(clientFrameLimit)
	s.touch()
	if !authed && !s.firstFrameAuth(conn) {
		if s.ctx.Err() != nil {
			_ = conn.Close(websocket.StatusGoingAway, "server shutting down")
			return
		}
		s.log.Warn("socket closed: first-frame auth failed", "remote", r.RemoteAddr)
		_ = conn.Close(closeAuthFailed, "Authentication failed")
		return
	}
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		_ = conn.Close(closeNotFound, "Conversation not found")
		return
	}
	switch code := s.faults.forcedClose(); code {
	case closeAuthFailed:
		_ = conn.Close(closeAuthFailed, "Authentication failed")
		return
	case closeTryAgainLater:
		_ = conn.Close(closeTryAgainLater, "Too many connections for this conversation")
		return
	case closePolicyViolation, closeInternalError:
		// Upstream closes these with a bare code.
		_ = conn.Close(websocket.StatusCode(code), "")
		return
	}
	if f := s.faults.get(); f.Docker && c.archivedAt(f) {
		_ = conn.Close(closeInternalError, "")
		return
	}
	sub := newSubscriber()
	sub.session = session
	if !c.subscribe(sub, r2, s.faults.get()) {
		_ = conn.Close(closeTryAgainLater, "Too many connections for this conversation")
		return
	}
	defer c.unsubscribe(sub)
	s.log.Info("socket subscribed", "conversation", c.id, "remote", r.RemoteAddr)
	s.serveSocket(conn, c, sub)
}

// presentedKey is the key a socket request carries in the
// X-Session-API-Key header or the session_api_key query parameter.
func presentedKey(r *http.Request) string {
	if k := r.Header.Get("X-Session-API-Key"); k != "" {
		return k
	}
	return r.URL.Query().Get("session_api_key")
}

// parseResend reads resend_mode, resend_all and after_timestamp.
func parseResend(r *http.Request) (resend, error) {
	q := r.URL.Query()
	var out resend
	switch q.Get("resend_mode") {
	case "all":
		out.all = true
	case "since":
		out.since = true
	}
	if q.Get("resend_all") == "true" {
		out.all = true
	}
	if v := q.Get("after_timestamp"); v != "" {
		t, err := model.ParseTime(v)
		if err != nil {
			return out, errors.New("after_timestamp: an ISO 8601 timestamp expected")
		}
		out.after = t
	}
	return out, nil
}

// firstFrameAuth waits for {"type":"auth","session_api_key":…} as the
// first frame, for up to Options.AuthTimeout. The read runs apart from the
// timer because an expiring read context would tear the connection down
// before the 4001 close frame could be sent.
func (s *Server) firstFrameAuth(conn *websocket.Conn) bool {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		_, data, err := conn.Read(context.Background())
		done <- result{data, err}
	}()
	timer := time.NewTimer(s.opts.AuthTimeout)
	defer timer.Stop()
	select {
	case res := <-done:
		if res.err != nil {
			return false
		}
		var frame struct {
			Type string `json:"type"`
			Key  string `json:"session_api_key"`
		}
		if json.Unmarshal(res.data, &frame) != nil || frame.Type != "auth" {
			return false
		}
		return s.keyOK(frame.Key)
	case <-timer.C:
		return false
	case <-s.ctx.Done():
		return false
	}
}

// serveSocket runs a subscribed socket: a writer sends the outbox while
// this goroutine reads the client's frames, until either side ends.
func (s *Server) serveSocket(conn *websocket.Conn, c *conversation, sub *subscriber) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	written := make(chan error, 1)
	go func() { written <- s.writeFrames(ctx, conn, sub) }()
	for {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			break
		}
		s.touch()
		s.clientFrame(c, sub, typ, data)
	}
	cancel()
	err := <-written
	s.log.Info("socket closed", "conversation", c.id, "reason", closeReason(err))
}

// writeFrames sends queued frames in order until the client goes, the
// server closes (1001) or a fault drops the connection (no close frame).
func (s *Server) writeFrames(ctx context.Context, conn *websocket.Conn, sub *subscriber) error {
	sent := 0
	for {
		select {
		case <-sub.wake:
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			_ = conn.Close(websocket.StatusGoingAway, "server shutting down")
			return s.ctx.Err()
		}
		// One write deadline serves many frames (a context and a timer per
		// frame cost more than a small frame's write); it is renewed once
		// half of it is gone, so each frame still has writeTimeout/2.
		var wctx context.Context
		cancel := context.CancelFunc(func() {})
		var since time.Time
		for _, frame := range sub.take() {
			if wctx == nil || time.Since(since) > writeTimeout/2 {
				cancel()
				wctx, cancel = context.WithTimeout(ctx, writeTimeout)
				since = time.Now()
			}
			if err := conn.Write(wctx, websocket.MessageText, frame); err != nil {
				cancel()
				_ = conn.CloseNow()
				return err
			}
			sent++
			if s.faults.dropAfter(sent) {
				cancel()
				_ = conn.CloseNow()
				return errDropped
			}
		}
		cancel()
	}
}

// clientFrame handles a frame a subscribed client sent: an auth frame is
// ignored, a user Message is appended as a user MessageEvent, anything
// else gets a ServerErrorEvent on this socket, which stays open.
func (s *Server) clientFrame(c *conversation, sub *subscriber, typ websocket.MessageType, data []byte) {
	var frame map[string]json.RawMessage
	if typ != websocket.MessageText || json.Unmarshal(data, &frame) != nil {
		sub.sendError("ValidationError", "a JSON object was expected")
		return
	}
	if t, ok := frame["type"]; ok && string(t) == `"auth"` {
		return
	}
	if detail := validateMessage(frame); detail != "" {
		sub.sendError("ValidationError", detail)
		return
	}
	s.takeMessage(c, data, true) // the socket's message runs the agent (sockets.py)
}

// validateMessage checks a client frame against the SDK Message the
// agent-server accepts: role user and a list of text or image content.
func validateMessage(frame map[string]json.RawMessage) string {
	var role string
	if json.Unmarshal(frame["role"], &role) != nil || role != "user" {
		return `role: "user" expected`
	}
	var content []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(frame["content"], &content) != nil {
		return "content: a list of text or image content expected"
	}
	for _, item := range content {
		if item.Type != "text" && item.Type != "image" {
			return `content: each item's type must be "text" or "image"`
		}
	}
	return ""
}

// closeReason describes how a socket ended, for the log.
func closeReason(err error) string {
	switch {
	case err == nil, errors.Is(err, context.Canceled):
		return "client closed"
	case errors.Is(err, errDropped):
		return errDropped.Error()
	}
	return err.Error()
}
