package serve

import (
	"net/http"
	"strconv"
	"time"
)

// The session socket, /sockets/session/{id} (upstream
// openhands-agent-server session_socket.py and session_protocol.py, PR
// #4807, SDK 1.45): every frame an envelope — sync{from_seq, through_seq}
// once, then durable{seq, event} for each event of the log (seq its index
// in it), transient{event} for what is not in the log (the snapshot a
// socket gets as it subscribes), error{code, detail} for a bad inbound
// frame. ?after_seq=N replays the log past N first (-1: all of it; absent:
// live only); the snapshot comes after the replay, as upstream's buffered
// subscriber sends it. Empty fields are left out, as upstream's
// model_dump_json(exclude_none=True) does.

// sessionSync is the first frame.
type sessionSync struct {
	Type       string `json:"type"`
	FromSeq    *int   `json:"from_seq,omitempty"`
	ThroughSeq *int   `json:"through_seq,omitempty"`
}

// durableFrame wraps an event of the log with its seq. The event's bytes
// are valid JSON already (decoded when they came), so they are spliced in,
// not re-encoded: a replay of 20,000 events spent most of its time there.
func durableFrame(seq int, raw []byte) []byte {
	b := make([]byte, 0, len(raw)+48)
	b = append(b, `{"type":"durable","seq":`...)
	b = strconv.AppendInt(b, int64(seq), 10)
	b = append(b, `,"event":`...)
	b = append(b, raw...)
	return append(b, '}')
}

// transientFrame wraps an event that is not in the log.
func transientFrame(raw []byte) []byte {
	b := make([]byte, 0, len(raw)+32)
	b = append(b, `{"type":"transient","event":`...)
	b = append(b, raw...)
	return append(b, '}')
}

// sessionErrorFrame answers a bad inbound frame; the socket stays open.
func sessionErrorFrame(code, detail string) []byte {
	return mustJSON(struct {
		Type   string `json:"type"`
		Code   string `json:"code"`
		Detail string `json:"detail"`
	}{"error", code, detail})
}

// handleSessionSocket serves GET /sockets/session/{id}, unless the server
// plays one from before it (Faults.NoSessionSocket): then the route is
// refused as Starlette refuses a WebSocket route it does not have, 403.
func (s *Server) handleSessionSocket(w http.ResponseWriter, r *http.Request) {
	if s.faults.get().NoSessionSocket {
		http.Error(w, "Forbidden", http.StatusForbidden)
		return
	}
	s.handleSocket(w, r)
}

// parseAfterSeq reads ?after_seq: absent is live only (nil).
func parseAfterSeq(r *http.Request) (*int, bool) {
	v := r.URL.Query().Get("after_seq")
	if v == "" {
		return nil, true
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil, false
	}
	return &n, true
}

// subscribeSessionLocked queues what a session socket gets as it
// subscribes: the sync frame, the log past after (all of it for -1,
// nothing for nil), then the snapshot. The caller holds c.mu.
func (c *conversation) subscribeSessionLocked(sub *subscriber, after *int, f Faults) {
	sync := sessionSync{Type: "sync", FromSeq: after}
	if n := len(c.emitted); n > 0 {
		through := n - 1
		sync.ThroughSeq = &through
	}
	sub.send(mustJSON(sync))
	if after != nil {
		start := max(*after+1, 0)
		if start < len(c.emitted) {
			history := c.emitted[start:]
			if n := min(f.ReplayOverlap, len(history)); n > 0 {
				for i, ev := range history[len(history)-n:] {
					sub.send(durableFrame(start+len(history)-n+i, ev.Raw))
				}
			}
			for i, ev := range history {
				sub.send(durableFrame(start+i, ev.Raw))
			}
		}
	}
	sub.send(transientFrame(c.subscribeFrameLocked()))
}

// sendEvent queues one event for sub: as it is on the legacy socket, or
// wrapped for a session socket (durable with its seq, transient for seq
// -1).
func (sub *subscriber) sendEvent(seq int, raw []byte) {
	switch {
	case !sub.session:
		sub.send(raw)
	case seq < 0:
		sub.send(transientFrame(raw))
	default:
		sub.send(durableFrame(seq, raw))
	}
}

// sendError queues the answer to a bad inbound frame.
func (sub *subscriber) sendError(code, detail string) {
	if sub.session {
		sub.send(sessionErrorFrame(code, detail))
		return
	}
	sub.send(serverErrorJSON(time.Now(), code, detail))
}

// handleSockets routes /sockets/events/{id} and /sockets/session/{id}.
func (s *Server) handleSockets(w http.ResponseWriter, r *http.Request) {
	switch r.PathValue("socket") {
	case "events":
		s.handleSocket(w, r)
	case "session":
		s.handleSessionSocket(w, r)
	default:
		http.NotFound(w, r)
	}
}
