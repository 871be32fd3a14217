package serve

import (
	"encoding/json"

	"errors"
	"io"
	"math"
	"net/http"
	"ohwatch/model"
	"strconv"
	"time"
)

// Version is the agent-server version /server_info reports: the release the
// protocol notes were written from.
const (
	Version    = "1.43.1"
	SDKVersion = "1.43.1"
	// SupersedingVersion is what a server with Options.MessageSupersedes
	// reports: upstream's main with PR #5110, which no release is known to
	// carry, so a client cannot tell from it what a message does.
	SupersedingVersion = "main+pr5110"
)

func (s *Server) handleAlive(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReady answers GET /ready as a server that has finished starting
// (openhands-agent-server server_details_router.py, ready).
func (s *Server) handleReady(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// handleServerInfo answers GET /server_info (no auth), with the fields
// clients branch on. idle_time counts from the latest event emitted or
// request served on any conversation.
func (s *Server) handleServerInfo(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	uptime := time.Since(s.started).Seconds()
	last := s.lastTouch
	convs := make([]*conversation, 0, len(s.convs))
	for _, c := range s.convs {
		convs = append(convs, c)
	}
	s.mu.Unlock()
	for _, c := range convs {
		if t := c.lastActive(); t.After(last) {
			last = t
		}
	}
	idle := time.Since(last).Seconds()
	version, sdk := Version, SDKVersion
	if s.opts.MessageSupersedes {
		version, sdk = SupersedingVersion, SupersedingVersion
	}
	// ServerInfo (server_details_router.py): whole seconds, as upstream's
	// int(now - start); no idle timeout is configured, so the terminal's
	// foreground cap is none either (openhands-tools timeout_policy.py).
	writeJSON(w, http.StatusOK, map[string]any{
		"uptime":                       math.Floor(uptime),
		"idle_time":                    math.Floor(idle),
		"python_version":               "unknown",
		"runtime_idle_timeout_seconds": nil,
		"max_foreground_terminal_timeout_seconds": nil,
		"title":             "OpenHands Agent Server (ohwatch replay)",
		"version":           version,
		"sdk_version":       sdk,
		"tools_version":     sdk,
		"workspace_version": sdk,
		"build_git_sha":     "unknown",
		"build_git_ref":     "unknown",
		"usable_tools":      []string{},
		"capabilities":      []string{},
		"docs":              "/docs",
		"redoc":             "/redoc",
	})
}

// handleGetConversation answers GET /api/conversations/{id} with the
// ConversationInfo as of now.
func (s *Server) handleGetConversation(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, c.info())
}

// handleBatchGet answers GET /api/conversations?ids=…&ids=… with one
// ConversationInfo or null per id.
func (s *Server) handleBatchGet(w http.ResponseWriter, r *http.Request) {
	ids := r.URL.Query()["ids"]
	if len(ids) >= 100 {
		writeDetail(w, http.StatusUnprocessableEntity, "ids: fewer than 100 expected")
		return
	}
	out := make([]json.RawMessage, len(ids))
	for i, id := range ids {
		out[i] = json.RawMessage(`null`)
		if c := s.lookup(id); c != nil {
			out[i] = c.info()
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// conversationsPage is the body of GET /api/conversations/search.
type conversationsPage struct {
	Items      []json.RawMessage `json:"items"`
	NextPageID *string           `json:"next_page_id"`
}

// handleSearchConversations answers GET /api/conversations/search: newest
// first, filtered by status, paged by an inclusive page_id.
func (s *Server) handleSearchConversations(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, err := parseLimit(q.Get("limit"))
	if err != nil {
		writeDetail(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	convs, ok := s.archiveFilter(s.filterConversations(q.Get("status")), q.Get("archive_filter"))
	if !ok {
		writeDetail(w, http.StatusUnprocessableEntity, archiveFilterDetail)
		return
	}
	if q.Get("sort_order") == "CREATED_AT" || q.Get("sort_order") == "UPDATED_AT" {
		for i, j := 0, len(convs)-1; i < j; i, j = i+1, j-1 {
			convs[i], convs[j] = convs[j], convs[i]
		}
	}
	start := 0
	if pid := q.Get("page_id"); pid != "" {
		for i, c := range convs {
			if c.id == model.NormalizeConversationID(pid) {
				start = i
				break
			}
		}
	}
	page := conversationsPage{Items: []json.RawMessage{}}
	end := min(start+limit, len(convs))
	for _, c := range convs[start:end] {
		page.Items = append(page.Items, c.info())
	}
	if end < len(convs) {
		next := convs[end].dashedID
		page.NextPageID = &next
	}
	writeJSON(w, http.StatusOK, page)
}

// handleCountConversations answers GET /api/conversations/count.
func (s *Server) handleCountConversations(w http.ResponseWriter, r *http.Request) {
	convs, ok := s.archiveFilter(s.filterConversations(r.URL.Query().Get("status")), r.URL.Query().Get("archive_filter"))
	if !ok {
		writeDetail(w, http.StatusUnprocessableEntity, archiveFilterDetail)
		return
	}
	writeJSON(w, http.StatusOK, len(convs))
}

// filterConversations returns the visible conversations whose status is
// status ("" for all).
func (s *Server) filterConversations(status string) []*conversation {
	convs := s.visible()
	if status == "" {
		return convs
	}
	out := convs[:0]
	for _, c := range convs {
		if c.status() == status {
			out = append(out, c)
		}
	}
	return out
}

// parseLimit reads a page size: 1-100, 100 when absent.
func parseLimit(v string) (int, error) {
	if v == "" {
		return 100, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 100 {
		return 0, errors.New("limit: an integer from 1 to 100 expected")
	}
	return n, nil
}

// handlePause answers POST /{id}/pause.
func (s *Server) handlePause(w http.ResponseWriter, r *http.Request) {
	s.control(w, r, func(c *conversation) error { c.pause(false); return nil })
}

// handleInterrupt answers POST /{id}/interrupt.
func (s *Server) handleInterrupt(w http.ResponseWriter, r *http.Request) {
	if s.faults.noInterrupt() {
		notFound(w)
		return
	}
	s.control(w, r, func(c *conversation) error { c.pause(true); return nil })
}

// handleRun answers POST /{id}/run; 409 when the replay is not paused.
func (s *Server) handleRun(w http.ResponseWriter, r *http.Request) {
	s.control(w, r, (*conversation).run)
}

// handleRespond answers POST /{id}/events/respond_to_confirmation.
func (s *Server) handleRespond(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Accept *bool  `json:"accept"`
		Reason string `json:"reason"`
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || json.Unmarshal(data, &body) != nil || body.Accept == nil {
		writeDetail(w, http.StatusUnprocessableEntity, `body: {"accept": bool, "reason"?: str} expected`)
		return
	}
	s.control(w, r, func(c *conversation) error { c.respond(*body.Accept, body.Reason); return nil })
}

// handleAnswer answers POST /{id}/events/respond_to_ask_user: 409 when no
// question is open or another one is, 400 for an answer that does not fit
// the question.
func (s *Server) handleAnswer(w http.ResponseWriter, r *http.Request) {
	var body askAnswer
	data, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || json.Unmarshal(data, &body) != nil || body.RequestID == "" {
		writeDetail(w, http.StatusUnprocessableEntity, `body: {"request_id": str, "action": "accept"|"decline"|"cancel", "answers"?: {question_id: [{"option_id", "label"}]}} expected`)
		return
	}
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		notFound(w)
		return
	}
	if err := c.answer(body); err != nil {
		status := http.StatusConflict
		if _, ok := err.(answerError); ok {
			status = http.StatusBadRequest
		}
		writeDetail(w, status, err.Error())
		return
	}
	s.log.Info("control", "conversation", c.id, "path", r.URL.Path)
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}

// control runs a POST action on the conversation and answers {success}.
func (s *Server) control(w http.ResponseWriter, r *http.Request, action func(*conversation) error) {
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		notFound(w)
		return
	}
	if err := action(c); err != nil {
		writeDetail(w, http.StatusConflict, err.Error())
		return
	}
	s.log.Info("control", "conversation", c.id, "path", r.URL.Path)
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}
