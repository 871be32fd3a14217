package serve

import (
	"fmt"
	"net/http"
	"strings"
)

// dockerUnavailable is the detail a Docker-runtime agent-server answers 501
// with for the routes its runtime cannot serve (upstream
// openhands-agent-server docker_runtime/routers.py, proxy_conversation).
const dockerUnavailable = "This operation is unavailable in Docker runtime mode"

// runtimeStatuses are upstream's ConversationRuntimeStatus values (models.py,
// PR #4966, SDK 1.48).
var runtimeStatuses = []string{"available", "starting", "missing", "ownership_lost", "error"}

// runtimeAnswer is upstream's ConversationRuntimeInfo as the route writes
// it: runtime_error is null or {code, message}.
type runtimeAnswer struct {
	RuntimeStatus string             `json:"runtime_status"`
	CanResume     bool               `json:"can_resume"`
	RuntimeError  *runtimeErrorField `json:"runtime_error"`
}

type runtimeErrorField struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// handleRuntime answers GET /api/conversations/{id}/runtime as a server
// with conversation runtimes does (Faults.Docker or Faults.Runtime); other
// servers have no such route: 404.
func (s *Server) handleRuntime(w http.ResponseWriter, r *http.Request) {
	f := s.faults.get()
	if !f.Docker && f.Runtime == "" {
		notFound(w)
		return
	}
	if s.lookup(r.PathValue("id")) == nil {
		writeDetail(w, http.StatusNotFound, "Conversation not found")
		return
	}
	a := runtimeAnswer{RuntimeStatus: "available", CanResume: true}
	if f.Runtime != "" {
		a.RuntimeStatus = f.Runtime
		a.CanResume = f.RuntimeCanResume
		if f.Runtime == "error" || f.Runtime == "ownership_lost" {
			a.RuntimeError = &runtimeErrorField{Code: "runtime_" + f.Runtime, Message: "the conversation's container is not running"}
		}
	}
	writeJSON(w, http.StatusOK, a)
}

// handleDockerOnly answers the routes a Docker runtime refuses: 501 with
// upstream's detail when the server plays one, 404 (no such route) else.
func (s *Server) handleDockerOnly(w http.ResponseWriter, r *http.Request) {
	if s.faults.get().Docker {
		writeDetail(w, http.StatusNotImplemented, dockerUnavailable)
		return
	}
	notFound(w)
}

// parseRuntime reads runtime=STATUS[:resume].
func parseRuntime(value string, f *Faults) error {
	status, resume, hasResume := strings.Cut(value, ":")
	known := false
	for _, s := range runtimeStatuses {
		known = known || s == status
	}
	if !known || (hasResume && resume != "resume") {
		return fmt.Errorf("fault runtime: %q is not one of %s, optionally followed by :resume", value, strings.Join(runtimeStatuses, ", "))
	}
	f.Runtime, f.RuntimeCanResume = status, hasResume
	return nil
}
