package session

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/internal/teacmds"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/client/fleetsource"
	"ohwatch/internal/redact"
	"ohwatch/model"
	"ohwatch/serve"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/fleetview"
)

// pausedCloud is an OpenHands Cloud (httptest) holding one conversation
// whose sandbox is paused: listed, with its stored events; POST
// /api/v1/sandboxes/{id}/resume makes it run on a real agent-server
// (serve). Every request is recorded.
type pausedCloud struct {
	srv      *httptest.Server
	mu       sync.Mutex
	running  bool
	requests []string
}

const (
	pausedConvID   = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
	pausedAPIKey   = "oh-api-key-resume-789"
	pausedAgentKey = "sandbox-session-key-resume-012"
)

func newPausedCloud(t *testing.T, agentURL string, stored []model.Event) *pausedCloud {
	c := &pausedCloud{}
	reply := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	conv := func() map[string]any {
		c.mu.Lock()
		defer c.mu.Unlock()
		m := map[string]any{"id": pausedConvID, "title": "Tidy the release notes", "sandbox_id": "sb-paused", "created_by_user_id": "u",
			"sandbox_status": "PAUSED", "execution_status": nil, "conversation_url": nil, "session_api_key": nil,
			"created_at": "2026-03-14T09:00:00Z", "updated_at": "2026-03-14T09:30:00Z"}
		if c.running {
			m["sandbox_status"], m["execution_status"] = "RUNNING", "running"
			m["conversation_url"], m["session_api_key"] = agentURL+"/api/conversations/"+pausedConvID, pausedAgentKey
		}
		return m
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/app-conversations/search", func(w http.ResponseWriter, r *http.Request) {
		reply(w, map[string]any{"items": []any{conv()}, "next_page_id": nil})
	})
	mux.HandleFunc("GET /api/v1/app-conversations", func(w http.ResponseWriter, r *http.Request) { reply(w, []any{conv()}) })
	mux.HandleFunc("GET /api/v1/conversation/{id}/events/search", func(w http.ResponseWriter, r *http.Request) {
		var items []json.RawMessage
		for _, ev := range stored {
			items = append(items, ev.Raw)
		}
		reply(w, map[string]any{"items": items, "next_page_id": nil})
	})
	mux.HandleFunc("POST /api/v1/sandboxes/{id}/resume", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.running = true
		c.mu.Unlock()
		reply(w, map[string]any{"success": true})
	})
	mux.HandleFunc("GET /api/v1/sandboxes", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		status := "PAUSED"
		if c.running {
			status = "RUNNING"
		}
		c.mu.Unlock()
		reply(w, []any{map[string]any{"id": "sb-paused", "created_by_user_id": "u", "sandbox_spec_id": "default", "status": status,
			"session_api_key": pausedAgentKey, "exposed_urls": []map[string]any{{"name": "AGENT_SERVER", "url": agentURL, "port": 8000}},
			"created_at": "2026-03-14T09:00:00Z"}})
	})
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.requests = append(c.requests, r.Method+" "+r.URL.String())
		c.mu.Unlock()
		if r.Header.Get("X-Session-API-Key") != pausedAPIKey {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(c.srv.Close)
	return c
}

func (c *pausedCloud) sent() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.requests...)
}

// tableDriver runs a root model as the program would, at the Update level:
// every command in a goroutine, every message back through Update on the
// test's goroutine.
type tableDriver struct {
	t    *testing.T
	m    tea.Model
	msgs chan tea.Msg
}

func (d *tableDriver) update(msg tea.Msg) {
	m, cmd := d.m.Update(msg)
	d.m = m
	teacmds.Run(cmd, d.msgs)
}

func (d *tableDriver) press(k string) {
	code := rune(k[0])
	switch k {
	case "enter":
		code = tea.KeyEnter
	case "esc":
		code = tea.KeyEscape
	default:
		d.update(tea.KeyPressMsg{Code: code, Text: k})
		return
	}
	d.update(tea.KeyPressMsg{Code: code})
}

// until handles messages until the screen holds every one of want.
func (d *tableDriver) until(want ...string) string {
	d.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		screen := d.m.View().Content
		all := true
		for _, w := range want {
			all = all && strings.Contains(screen, w)
		}
		if all {
			return screen
		}
		select {
		case msg := <-d.msgs:
			d.update(msg)
		case <-deadline:
			d.t.Fatalf("not all of %q on the screen:\n%s", want, screen)
		}
	}
}

// TestFleetTableResumesAPausedCloudConversation runs the fleet table over
// a Cloud source (an httptest Cloud) whose one conversation's sandbox is
// paused: enter says so and asks; n opens the stored events read-only
// without resuming (only GETs reach Cloud); y resumes the sandbox (POST
// .../resume) and opens the conversation live on its agent-server. No
// key is ever in a URL or on the screen.
func TestFleetTableResumesAPausedCloudConversation(t *testing.T) {
	base, events := demoConversation(t)
	srv := serve.New(serve.Options{Key: pausedAgentKey, Speed: 0})
	srv.Add(pausedConvID, base, events)
	agentURL := startTestServer(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl := newPausedCloud(t, agentURL, events[:10])

	env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"OH_API_KEY": pausedAPIKey, "OH_API_BASE": cl.srv.URL}[k]
	}}
	o := FleetOptions{Interval: time.Hour, Theme: theme.Auto}
	secrets := new(redact.Secrets)
	fl, err := BuildFleet(env, []string{"cloud"}, o, secrets, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	feed := fleetsource.Watch(ctx, fl.sources, fleetsource.Options{})
	opts := fl.tableOptions(ctx, env, o, feed)
	opts.NoColor, opts.Profile = true, colorprofile.NoTTY // plain text to read
	d := &tableDriver{t: t, m: tui.NewModel(fleetview.NewFleet(opts)), msgs: make(chan tea.Msg, 64)}
	teacmds.Run(d.m.Init(), d.msgs)
	d.update(tea.WindowSizeMsg{Width: 150, Height: 30})
	d.until("Tidy the release notes", "paused")

	// enter asks; n opens the stored events, read-only.
	d.press("enter")
	d.until("its sandbox is paused", "y resume the sandbox and open it live", "n/esc open the stored events read-only")
	d.press("n")
	d.until("sandbox paused: Cloud's stored events", "recorded")
	for _, r := range cl.sent() {
		if !strings.HasPrefix(r, "GET ") {
			t.Fatalf("read-only, the fleet sent %s to Cloud", r)
		}
	}
	d.press("esc")
	d.until("ohwatch · fleet")

	// enter again; y resumes the sandbox and opens it live.
	d.press("enter")
	d.until("its sandbox is paused")
	d.press("y")
	screen := d.until("ws "+agentURL, "Tidy the release notes")
	resumed := false
	for _, r := range cl.sent() {
		resumed = resumed || r == "POST /api/v1/sandboxes/sb-paused/resume"
		if strings.Contains(r, pausedAPIKey) || strings.Contains(r, pausedAgentKey) {
			t.Errorf("a key in a URL: %s", r)
		}
	}
	if !resumed {
		t.Errorf("y did not resume the sandbox: %v", cl.sent())
	}
	if strings.Contains(screen, pausedAPIKey) || strings.Contains(screen, pausedAgentKey) {
		t.Error("a key on the screen")
	}
}
