package serve

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// maxRequestBody bounds a POST body the server reads.
const maxRequestBody = 1 << 20

// readBody reads a POST body as JSON into v; an empty body leaves v as it
// is (FastAPI's defaults).
func readBody(r *http.Request, v any) error {
	data, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	if err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	return json.Unmarshal(data, v)
}

// handleFork answers POST /{id}/fork with the fork's ConversationInfo
// (201); 404 for a missing source or an unknown from_event_id, 409 for an
// id in use (openhands-agent-server conversation_router.py,
// fork_conversation).
func (s *Server) handleFork(w http.ResponseWriter, r *http.Request) {
	if s.faults.get().Docker {
		writeDetail(w, http.StatusNotImplemented, dockerUnavailable)
		return
	}
	if s.faults.noTree() {
		notFound(w)
		return
	}
	src := s.lookup(r.PathValue("id"))
	if src == nil {
		writeDetail(w, http.StatusNotFound, "Source conversation not found")
		return
	}
	var req forkRequest
	if err := readBody(r, &req); err != nil {
		writeDetail(w, http.StatusUnprocessableEntity, `body: {"id"?, "title"?, "tags"?, "reset_metrics"?, "from_event_id"?} expected`)
		return
	}
	fork, err := s.fork(src, req)
	switch {
	case errors.Is(err, errForkExists):
		writeDetail(w, http.StatusConflict, err.Error())
		return
	case errors.Is(err, errUnknownEvent):
		writeDetail(w, http.StatusNotFound, "Unknown from_event_id: "+*req.FromEventID)
		return
	case err != nil:
		writeDetail(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	writeJSON(w, http.StatusCreated, fork.info())
}

// handleNavigate answers POST /{id}/navigate {event_id} with the
// ConversationInfo carrying the new leaf_event_id: HEAD moves to the event
// (to none for null) and subscribers get a snapshot with it. 404 for an
// event the conversation does not have (openhands-agent-server
// conversation_router.py, navigate_conversation).
func (s *Server) handleNavigate(w http.ResponseWriter, r *http.Request) {
	if s.faults.noTree() {
		notFound(w)
		return
	}
	var body map[string]json.RawMessage
	var id *string
	if err := readBody(r, &body); err != nil || body["event_id"] == nil || json.Unmarshal(body["event_id"], &id) != nil {
		writeDetail(w, http.StatusUnprocessableEntity, `body: {"event_id": str | null} expected`)
		return
	}
	target := ""
	if id != nil {
		target = *id
	}
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		notFound(w)
		return
	}
	info, err := c.navigate(target)
	if err != nil {
		writeDetail(w, http.StatusNotFound, "Unknown event_id: "+target)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// sendMessageRequest is the body of POST /{id}/events (SendMessageRequest).
type sendMessageRequest struct {
	Role    json.RawMessage `json:"role"`
	Content json.RawMessage `json:"content"`
	Run     bool            `json:"run"`
}

// handleSendMessage answers POST /{id}/events: the user message is
// appended (hanging from HEAD) and, with run, the replay starts or goes on
// as /run would make it.
func (s *Server) handleSendMessage(w http.ResponseWriter, r *http.Request) {
	var req sendMessageRequest
	if err := readBody(r, &req); err != nil {
		writeDetail(w, http.StatusUnprocessableEntity, `body: {"role": "user", "content": [...], "run"?: bool} expected`)
		return
	}
	if req.Role == nil {
		req.Role = json.RawMessage(`"user"`)
	}
	if detail := validateMessage(map[string]json.RawMessage{"role": req.Role, "content": req.Content}); detail != "" {
		writeDetail(w, http.StatusUnprocessableEntity, detail)
		return
	}
	message := mustJSON(struct {
		Role    json.RawMessage `json:"role"`
		Content json.RawMessage `json:"content"`
	}{req.Role, req.Content})
	s.control(w, r, func(c *conversation) error {
		s.takeMessage(c, message, req.Run)
		if req.Run {
			s.runAfterMessage(c)
		}
		return nil
	})
}
