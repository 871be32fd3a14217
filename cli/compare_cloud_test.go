package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/serve"
)

// fakeCloud is an httptest Cloud (the schema's shapes, reduced to the
// routes a Cloud run of compare uses) holding one conversation: running
// on the agent-server at agentURL with sessionKey, or paused with events
// stored. It answers 401 to any other API key.
func fakeCloud(t *testing.T, apiKey, convID, status, agentURL, sessionKey string, stored [][]byte) string {
	t.Helper()
	reply := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/app-conversations", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("ids") != convID {
			reply(w, []any{nil})
			return
		}
		conv := map[string]any{"id": convID, "sandbox_id": "sb-1", "sandbox_status": status, "title": "cloud run",
			"execution_status": nil, "conversation_url": nil, "session_api_key": nil,
			"created_at": "2026-08-13T10:00:00Z", "updated_at": "2026-08-13T10:05:00Z"}
		if status == "RUNNING" {
			conv["conversation_url"] = agentURL + "/api/conversations/" + convID
			conv["session_api_key"] = sessionKey
		}
		reply(w, []any{conv})
	})
	mux.HandleFunc("GET /api/v1/conversation/{id}/events/search", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != convID || status == "RUNNING" {
			http.NotFound(w, r)
			return
		}
		items := make([]json.RawMessage, len(stored))
		for k, raw := range stored {
			items[k] = raw
		}
		reply(w, map[string]any{"items": items, "next_page_id": nil})
	})
	mux.HandleFunc("POST /api/v1/sandboxes/{id}/resume", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("compare resumed a sandbox")
		w.WriteHeader(http.StatusInternalServerError)
	})
	cloud := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Session-API-Key") != apiKey || strings.Contains(r.URL.String(), apiKey) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(cloud.Close)
	return cloud.URL
}

// A Cloud conversation compares with a recording, whether its sandbox
// runs (read on the sandbox's agent-server, a real serve) or is paused
// (read from Cloud's stored events, the sandbox left asleep): the same
// recording is the same run, and neither key is printed.
func TestCompareCloudConversation(t *testing.T) {
	const (
		apiKey     = "oh-api-key-compare-secret-0123"
		sessionKey = "sandbox-session-key-compare-456"
		id         = "2a7f2ccc343c43749a75342cea50f197"
	)
	path := twin(t, "creating_agent_plan")
	conv, err := files.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.Options{Key: sessionKey, Speed: 0, FinishConfirmDelay: 1})
	srv.Add(id, conv.Base, conv.Events)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	agentURL, err := srv.Start(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	awaitFinished(t, ctx, agentURL, sessionKey, id)
	stored := make([][]byte, len(conv.Events))
	for k, ev := range conv.Events {
		stored[k] = ev.Raw
	}
	for _, status := range []string{"RUNNING", "PAUSED"} {
		env := map[string]string{"OH_API_KEY": apiKey, "OH_API_BASE": fakeCloud(t, apiKey, id, status, agentURL, sessionKey, stored)}
		doc := compareJSON(t, env, path, "cloud:"+id)
		if string(doc.FirstDivergence) != "null" || doc.Counts["same"] == 0 || doc.SharedUntil == nil || doc.B.Steps != doc.A.Steps {
			t.Fatalf("%s: first_divergence %s, counts %v, shared until %v, steps %d/%d", status, doc.FirstDivergence, doc.Counts, doc.SharedUntil, doc.A.Steps, doc.B.Steps)
		}
		code, out, errs := runCmd(t, env, "compare", "cloud:"+id, path)
		if code != 0 || !strings.Contains(out, "cloud:"+id) {
			t.Fatalf("%s: text report, exit %d:\n%s\n%s", status, code, out, errs)
		}
		for _, key := range []string{apiKey, sessionKey} {
			if strings.Contains(out+errs, key) {
				t.Fatalf("%s: a key was printed", status)
			}
		}
	}
}

// A rejected key or an unknown conversation is one line and exit 4, as
// an unreachable agent-server is; no key at all is a usage error.
func TestCompareCloudFailures(t *testing.T) {
	const (
		apiKey = "oh-api-key-compare-secret-0123"
		id     = "2a7f2ccc343c43749a75342cea50f197"
		other  = "0123456789abcdef0123456789abcdef"
	)
	path := twin(t, "creating_agent_plan")
	base := fakeCloud(t, apiKey, id, "PAUSED", "", "", nil)
	for _, c := range []struct {
		name, key, run, says string
		code                 int
	}{
		{"bad key", "oh-wrong-key-0123456789", "cloud:" + id, "rejected the API key", headless.ExitUnreachable},
		{"unknown id", apiKey, "cloud:" + other, "not found", headless.ExitUnreachable},
		{"no key", "", "cloud:" + id, "OH_API_KEY", exitUsage},
		{"bad id", apiKey, "cloud:../x", "", exitUsage},
	} {
		env := map[string]string{"OH_API_KEY": c.key, "OH_API_BASE": base}
		code, out, errs := runCmd(t, env, "compare", "--json", path, c.run)
		if code != c.code || !strings.Contains(errs, c.says) || out != "" {
			t.Errorf("%s: exit %d (want %d), stdout %q, stderr:\n%s", c.name, code, c.code, out, errs)
		}
		if c.code == headless.ExitUnreachable && strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s: more than one line:\n%s", c.name, errs)
		}
		if c.key != "" && strings.Contains(errs, c.key) {
			t.Errorf("%s: the key was printed", c.name)
		}
	}
}

// compare's help names every spelling of a run, the Cloud one too.
func TestCompareHelpNamesCloudRuns(t *testing.T) {
	code, out, errs := runCmd(t, nil, "help", "compare")
	if code != 0 || !strings.Contains(out, "cloud:ID") || !strings.Contains(out, "OH_API_KEY") || !strings.Contains(out, "http://HOST:PORT#ID") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
}
