package cloud

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeCloud is an app server that follows the Cloud OpenAPI schema for the
// routes this package uses: the same paths, methods, query parameters,
// status codes and JSON shapes (SandboxInfo, AppConversationStartTask,
// AppConversation, Success, HTTPValidationError). Statuses advance one step
// per poll through the scripted sequences; the last one repeats.
type fakeCloud struct {
	t      testing.TB
	srv    *httptest.Server
	apiKey string

	mu                sync.Mutex
	sandboxStatuses   []string // per GET /api/v1/sandboxes
	sandboxDetail     string
	taskStatuses      []string // per GET start-tasks
	taskDetail        string
	sandboxes         map[string]*fakeSandbox
	conversations     map[string]*fakeConversation
	startRequests     []map[string]any
	requests          []recordedRequest
	deletes           []string
	resumes           []string
	nextSandbox       int
	sandboxSessionKey string
	echoKeyOnError    bool           // a 500 reply that quotes the request's key
	echoKeyOn         string         // "METHOD path" answered so, alone
	failures          map[string]int // "METHOD path" → how many 503s to answer first
	// listed are the account's conversations the search pages through,
	// and stored the events Cloud keeps for each (see fakesearch_test.go).
	listed []map[string]any
	stored map[string][]json.RawMessage
}

type fakeSandbox struct {
	id     string
	spec   string
	status string
	script []string // statuses for successive GETs, if any
	polls  int
}

type fakeConversation struct {
	id, sandboxID, sessionKey string
	taskPolls                 int
}

type recordedRequest struct {
	Method, Path, RawQuery string
}

const (
	fakeConvID     = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
	fakeTaskID     = "11111111-2222-3333-4444-555555555555"
	fakeSessionKey = "sess-secret-0f9e8d7c6b5a"
)

func newFakeCloud(t testing.TB, apiKey string) *fakeCloud {
	t.Helper()
	f := &fakeCloud{
		t:                 t,
		apiKey:            apiKey,
		sandboxStatuses:   []string{"STARTING", "STARTING", "RUNNING"},
		taskStatuses:      []string{"WORKING", "WAITING_FOR_SANDBOX", "PREPARING_REPOSITORY", "STARTING_CONVERSATION", "READY"},
		sandboxes:         map[string]*fakeSandbox{},
		conversations:     map[string]*fakeConversation{},
		sandboxSessionKey: fakeSessionKey,
		failures:          map[string]int{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/sandboxes", f.startSandbox)
	mux.HandleFunc("GET /api/v1/sandboxes", f.batchGetSandboxes)
	mux.HandleFunc("POST /api/v1/sandboxes/{sandbox_id}/resume", f.resumeSandbox)
	mux.HandleFunc("DELETE /api/v1/sandboxes/{id}", f.deleteSandbox)
	mux.HandleFunc("POST /api/v1/app-conversations", f.startConversation)
	mux.HandleFunc("GET /api/v1/app-conversations", f.batchGetConversations)
	mux.HandleFunc("GET /api/v1/app-conversations/start-tasks", f.batchGetTasks)
	mux.HandleFunc("GET /api/v1/app-conversations/search", f.searchConversations)
	mux.HandleFunc("GET /api/v1/conversation/{id}/events/search", f.searchEvents)
	f.srv = httptest.NewServer(f.auth(mux))
	t.Cleanup(f.srv.Close)
	return f
}

// auth records every request and answers 401 {"detail": …} without the key,
// as FastAPI does.
func (f *fakeCloud) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, recordedRequest{r.Method, r.URL.Path, r.URL.RawQuery})
		route := r.Method + " " + r.URL.Path
		echo := f.echoKeyOnError || f.echoKeyOn == route
		fail := f.failures[route] > 0
		if fail {
			f.failures[route]--
		}
		f.mu.Unlock()
		if r.Header.Get("X-Session-API-Key") != f.apiKey || r.Header.Get("Authorization") != "Bearer "+f.apiKey {
			writeJSON(w, http.StatusUnauthorized, map[string]any{"detail": "Not authenticated"})
			return
		}
		if fail {
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"detail": "upstream connect error"})
			return
		}
		if echo {
			writeJSON(w, http.StatusInternalServerError, map[string]any{"detail": "internal error for key " + r.Header.Get("X-Session-API-Key")})
			return
		}
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// missingQuery answers 422 with FastAPI's HTTPValidationError shape.
func missingQuery(w http.ResponseWriter, name string) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": []map[string]any{
		{"loc": []string{"query", name}, "msg": "Field required", "type": "missing"},
	}})
}

func (f *fakeCloud) sandboxJSON(sb *fakeSandbox) map[string]any {
	out := map[string]any{
		"id": sb.id, "created_by_user_id": "user-1", "sandbox_spec_id": sb.spec,
		"status": sb.status, "session_api_key": nil, "exposed_urls": nil,
		"created_at": "2026-08-13T10:00:00Z",
	}
	if sb.status == "RUNNING" {
		out["session_api_key"] = f.sandboxSessionKey
		out["exposed_urls"] = []map[string]any{
			{"name": "VSCODE", "url": "https://vscode-" + sb.id + ".runtime.example", "port": 8001},
			{"name": "AGENT_SERVER", "url": "https://" + sb.id + ".runtime.example", "port": 8000},
		}
	}
	if f.sandboxDetail != "" {
		out["status_detail"] = f.sandboxDetail
	}
	return out
}

func (f *fakeCloud) startSandbox(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextSandbox++
	sb := &fakeSandbox{id: fmt.Sprintf("sb-%d", f.nextSandbox), spec: r.URL.Query().Get("sandbox_spec_id"), status: "STARTING", script: f.sandboxStatuses}
	if sb.spec == "" {
		sb.spec = "default-spec"
	}
	f.sandboxes[sb.id] = sb
	writeJSON(w, http.StatusOK, f.sandboxJSON(sb))
}

// batchGet answers a batch-get route as the Cloud does: 422 without the
// query parameter, otherwise one element per id, in order, null for an id
// that lookup does not know (it returns nil). lookup runs with mu held.
func (f *fakeCloud) batchGet(w http.ResponseWriter, r *http.Request, param string, lookup func(id string) map[string]any) {
	ids := r.URL.Query()[param]
	if len(ids) == 0 {
		missingQuery(w, param)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]any, 0, len(ids))
	for _, id := range ids {
		if item := lookup(id); item != nil {
			out = append(out, item)
		} else {
			out = append(out, nil)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (f *fakeCloud) batchGetSandboxes(w http.ResponseWriter, r *http.Request) {
	f.batchGet(w, r, "id", func(id string) map[string]any {
		sb := f.sandboxes[id]
		if sb == nil {
			return nil
		}
		if len(sb.script) > 0 {
			sb.status = sb.script[min(sb.polls, len(sb.script)-1)]
			sb.polls++
		}
		return f.sandboxJSON(sb)
	})
}

func (f *fakeCloud) resumeSandbox(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := r.PathValue("sandbox_id")
	sb := f.sandboxes[id]
	if sb == nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	f.resumes = append(f.resumes, id)
	sb.status = "STARTING"
	sb.script = f.sandboxStatuses
	sb.polls = 0
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}

func (f *fakeCloud) deleteSandbox(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("sandbox_id")
	if id == "" {
		missingQuery(w, "sandbox_id")
		return
	}
	if id != r.PathValue("id") {
		f.t.Errorf("DELETE path id %q and sandbox_id %q differ", r.PathValue("id"), id)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sandboxes[id] == nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	delete(f.sandboxes, id)
	f.deletes = append(f.deletes, id)
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}

func (f *fakeCloud) taskJSON(status string, conv *fakeConversation) map[string]any {
	out := map[string]any{
		"id": fakeTaskID, "created_by_user_id": "user-1", "status": status,
		"detail": nil, "app_conversation_id": nil, "sandbox_id": nil, "agent_server_url": nil,
		"request":    map[string]any{"sandbox_id": conv.sandboxID},
		"created_at": "2026-08-13T10:00:01Z", "updated_at": "2026-08-13T10:00:02Z",
	}
	switch status {
	case "READY":
		out["app_conversation_id"] = conv.id
		out["sandbox_id"] = conv.sandboxID
		out["agent_server_url"] = "https://" + conv.sandboxID + ".runtime.example"
	case "ERROR":
		out["detail"] = f.taskDetail
	}
	return out
}

func (f *fakeCloud) startConversation(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": []map[string]any{{"loc": []string{"body"}, "msg": "JSON decode error"}}})
		return
	}
	sandboxID, _ := body["sandbox_id"].(string)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.startRequests = append(f.startRequests, body)
	conv := &fakeConversation{id: fakeConvID, sandboxID: sandboxID, sessionKey: fakeSessionKey}
	f.conversations[fakeConvID] = conv
	writeJSON(w, http.StatusOK, f.taskJSON("WORKING", conv))
}

func (f *fakeCloud) batchGetTasks(w http.ResponseWriter, r *http.Request) {
	f.batchGet(w, r, "ids", func(id string) map[string]any {
		conv := f.conversations[fakeConvID]
		if id != fakeTaskID || conv == nil {
			return nil
		}
		i := min(conv.taskPolls, len(f.taskStatuses)-1)
		conv.taskPolls++
		return f.taskJSON(f.taskStatuses[i], conv)
	})
}

func (f *fakeCloud) batchGetConversations(w http.ResponseWriter, r *http.Request) {
	f.batchGet(w, r, "ids", func(id string) map[string]any {
		conv := f.conversations[strings.ReplaceAll(strings.ToLower(id), "-", "")]
		if conv == nil {
			return nil
		}
		status := "MISSING"
		if sb := f.sandboxes[conv.sandboxID]; sb != nil {
			status = sb.status
		}
		c := map[string]any{
			"id": conv.id, "created_by_user_id": "user-1", "sandbox_id": conv.sandboxID,
			"title": "ohwatch", "sandbox_status": status, "execution_status": nil,
			"conversation_url": nil, "session_api_key": nil, "acp_server": nil,
			"launched_agent_profile": nil, "tags": map[string]string{}, "sub_conversation_ids": []string{},
		}
		if status == "RUNNING" {
			c["execution_status"] = "running"
			c["conversation_url"] = "https://" + conv.sandboxID + ".runtime.example/api/conversations/" + conv.id
			c["session_api_key"] = conv.sessionKey
		}
		return c
	})
}

// addConversation puts an existing conversation whose sandbox has status.
func (f *fakeCloud) addConversation(status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sandboxes["sb-old"] = &fakeSandbox{id: "sb-old", spec: "default-spec", status: status}
	f.conversations[fakeConvID] = &fakeConversation{id: fakeConvID, sandboxID: "sb-old", sessionKey: fakeSessionKey}
}

func (f *fakeCloud) snapshot() (deletes, resumes []string, reqs []recordedRequest) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.deletes...), append([]string(nil), f.resumes...), append([]recordedRequest(nil), f.requests...)
}
