package serve

import (
	"crypto/subtle"
	"net/http"
)

// routes is the agent-server's REST and socket surface that a replay can
// honour.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /alive", s.handleAlive)
	mux.HandleFunc("GET /health", s.handleAlive)
	mux.HandleFunc("GET /ready", s.handleReady)
	mux.HandleFunc("GET /server_info", s.handleServerInfo)
	mux.HandleFunc("GET /sockets/{socket}/{id}", s.handleSockets)

	api := http.NewServeMux()
	api.HandleFunc("GET /api/conversations", s.handleBatchGet)
	api.HandleFunc("GET /api/conversations/search", s.handleSearchConversations)
	api.HandleFunc("GET /api/conversations/count", s.handleCountConversations)
	api.HandleFunc("GET /api/conversations/{id}", s.handleGetConversation)
	api.HandleFunc("POST /api/conversations/{id}/pause", s.handlePause)
	api.HandleFunc("POST /api/conversations/{id}/interrupt", s.handleInterrupt)
	api.HandleFunc("POST /api/conversations/{id}/run", s.handleRun)
	api.HandleFunc("POST /api/conversations/{id}/confirmation_policy", s.handleConfirmationPolicy)
	api.HandleFunc("POST /api/conversations/{id}/fork", s.handleFork)
	api.HandleFunc("POST /api/conversations/{id}/navigate", s.handleNavigate)
	api.HandleFunc("GET /api/conversations/{id}/runtime", s.handleRuntime)
	// A Docker runtime's 501s (runtime.go); fork answers its own.
	api.HandleFunc("POST /api/conversations/{id}/switch_llm", s.handleDockerOnly)
	api.HandleFunc("POST /api/conversations/{id}/switch_profile", s.handleDockerOnly)
	api.HandleFunc("POST /api/conversations/{id}/credential-bindings", s.handleDockerOnly)
	api.HandleFunc("POST /api/conversations/{id}/events", s.handleSendMessage)
	api.HandleFunc("GET /api/conversations/{id}/events", s.handleBatchGetEvents)
	api.HandleFunc("GET /api/conversations/{id}/events/search", s.handleSearchEvents)
	api.HandleFunc("GET /api/conversations/{id}/events/count", s.handleCountEvents)
	api.HandleFunc("GET /api/conversations/{id}/events/{event_id}", s.handleGetEvent)
	api.HandleFunc("POST /api/conversations/{id}/events/respond_to_confirmation", s.handleRespond)
	api.HandleFunc("POST /api/conversations/{id}/events/respond_to_ask_user", s.handleAnswer)
	mux.Handle("/api/", s.requireKey(api))
	return mux
}

// keyOK compares a presented key with the configured one in constant
// time. With no key configured every request is allowed.
func (s *Server) keyOK(presented string) bool {
	if s.opts.Key == "" {
		return true
	}
	return subtle.ConstantTimeCompare([]byte(presented), []byte(s.opts.Key)) == 1
}

// requireKey answers 401 to a request without the right X-Session-API-Key,
// as the agent-server does for every /api route.
func (s *Server) requireKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.keyOK(r.Header.Get("X-Session-API-Key")) {
			s.log.Warn("rejected request: missing or wrong session key", "method", r.Method, "path", r.URL.Path)
			writeDetail(w, http.StatusUnauthorized, "Unauthorized")
			return
		}
		s.touch()
		s.log.Debug("request", "method", r.Method, "path", r.URL.Path)
		next.ServeHTTP(w, r)
	})
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := marshal(v)
	if err != nil {
		http.Error(w, `{"detail":"internal error"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeDetail answers with FastAPI's error shape, {"detail": "..."}.
func writeDetail(w http.ResponseWriter, status int, detail string) {
	writeJSON(w, status, map[string]string{"detail": detail})
}

// notFound is the answer for a conversation or event that does not exist
// (or has gone silent).
func notFound(w http.ResponseWriter) {
	writeDetail(w, http.StatusNotFound, "Not Found")
}
