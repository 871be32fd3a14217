package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/headless"
	"ohwatch/serve"
)

// TestCloudStartWatchAndCleanUp runs `ohwatch cloud --headless` against an
// httptest Cloud (the schema's shapes, reduced to the routes the flow uses)
// whose sandbox's agent server is the real agent-server-compatible server
// serving the demo: the watch must reach a confirmed finished, delete the
// sandbox afterwards, and print neither key.
func TestCloudStartWatchAndCleanUp(t *testing.T) {
	t.Parallel()
	const (
		apiKey     = "oh-api-key-secret-123"
		sessionKey = "sandbox-session-key-456"
		convID     = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
		sandboxID  = "sb-1"
	)
	base, events, err := demoConversation()
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.Options{Key: sessionKey, Speed: 500, ConfirmHold: time.Millisecond, FinishConfirmDelay: 10 * time.Millisecond})
	srv.Add(convID, base, events)
	agentURL := startTestServer(t, srv)

	var mu sync.Mutex
	var deleted []string
	reply := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	sandbox := func(status string) map[string]any {
		sb := map[string]any{"id": sandboxID, "created_by_user_id": "u", "sandbox_spec_id": "default", "status": status,
			"session_api_key": nil, "exposed_urls": nil, "created_at": "2026-08-13T10:00:00Z"}
		if status == "RUNNING" {
			sb["session_api_key"] = sessionKey
			sb["exposed_urls"] = []map[string]any{{"name": "AGENT_SERVER", "url": agentURL, "port": 8000}}
		}
		return sb
	}
	task := func(status string) map[string]any {
		tk := map[string]any{"id": "task-1", "created_by_user_id": "u", "status": status, "detail": nil,
			"app_conversation_id": nil, "sandbox_id": sandboxID, "agent_server_url": nil,
			"request": map[string]any{"sandbox_id": sandboxID}, "created_at": "2026-08-13T10:00:01Z", "updated_at": "2026-08-13T10:00:02Z"}
		if status == "READY" {
			tk["app_conversation_id"], tk["agent_server_url"] = convID, agentURL
		}
		return tk
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/sandboxes", func(w http.ResponseWriter, r *http.Request) { reply(w, sandbox("STARTING")) })
	mux.HandleFunc("GET /api/v1/sandboxes", func(w http.ResponseWriter, r *http.Request) { reply(w, []any{sandbox("RUNNING")}) })
	mux.HandleFunc("POST /api/v1/app-conversations", func(w http.ResponseWriter, r *http.Request) { reply(w, task("WORKING")) })
	mux.HandleFunc("GET /api/v1/app-conversations/start-tasks", func(w http.ResponseWriter, r *http.Request) { reply(w, []any{task("READY")}) })
	mux.HandleFunc("DELETE /api/v1/sandboxes/{id}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		deleted = append(deleted, r.PathValue("id"))
		mu.Unlock()
		reply(w, map[string]any{"success": true})
	})
	cloud := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Session-API-Key") != apiKey || strings.Contains(r.URL.String(), apiKey) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	defer cloud.Close()

	env := map[string]string{"OH_API_KEY": apiKey, "OH_API_BASE": cloud.URL}
	code, out, errs := runCmd(t, env, "cloud", "--headless", "--message", "fix the cache", "--watch-timeout", "60s")
	if code != headless.ExitFinished || !strings.Contains(out, "terminal state reached: finished") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(deleted) != 1 || deleted[0] != sandboxID {
		t.Errorf("sandboxes deleted: %v, want [%s]", deleted, sandboxID)
	}
	for _, key := range []string{apiKey, sessionKey} {
		if strings.Contains(out+errs, key) {
			t.Errorf("a key was printed")
		}
	}
}

// TestCloudServerErrorIsExit4 has Cloud answer 500, echoing the API key in
// altered forms, while the sandbox is created: no conversation was
// reached, so the exit is 4 (not 1, which means a conversation ended in
// error), with a short excerpt of the answer and no form of the key.
func TestCloudServerErrorIsExit4(t *testing.T) {
	const apiKey = "oh-api-key-secret-0123456789abcdef"
	var echoes []string
	for _, e := range keyEchoes(apiKey) {
		echoes = append(echoes, e)
	}
	cloud := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"detail":"Internal error for ` + strings.Join(echoes, " ") + strings.Repeat(" trace", 2000) + `"}`))
	}))
	defer cloud.Close()
	env := map[string]string{"OH_API_KEY": apiKey, "OH_API_BASE": cloud.URL, "POLL_TIMEOUT": "2"}
	code, out, errs := runCmd(t, env, "cloud", "--headless", "--watch-timeout", "20s")
	if code != headless.ExitUnreachable {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, headless.ExitUnreachable, out, errs)
	}
	if !strings.Contains(errs, "HTTP 500") {
		t.Errorf("stderr does not say what Cloud answered:\n%s", errs)
	}
	if found := leaks(out+errs, apiKey); len(found) > 0 {
		t.Errorf("the API key was printed as %v:\n%s", found, errs)
	}
	for _, line := range strings.Split(errs, "\n") {
		if len(line) > 600 {
			t.Errorf("a line of %d bytes quotes too much of Cloud's answer", len(line))
		}
	}
}
