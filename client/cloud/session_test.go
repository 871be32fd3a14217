package cloud

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const testAPIKey = "oh-api-key-7d3c1b9a5e"

// harness runs a Session against a fakeCloud and captures everything the
// session lets out: log records and progress lines.
type harness struct {
	cloud *fakeCloud
	logs  *syncBuffer
	mu    sync.Mutex
	steps []string
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return &harness{cloud: newFakeCloud(t, testAPIKey), logs: &syncBuffer{}}
}

// config is a fast configuration against the fake: polls every
// millisecond, so no test sleeps real seconds.
func (h *harness) config() Config {
	return Config{
		APIKey:       testAPIKey,
		BaseURL:      h.cloud.srv.URL,
		Message:      "Say hello in one short sentence, then stop.",
		PollTimeout:  5 * time.Second,
		PollInterval: time.Millisecond,
		Logger:       slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		OnProgress: func(stage string) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.steps = append(h.steps, stage)
		},
	}
}

func (h *harness) session(t *testing.T, cfg Config) *Session {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

func (h *harness) progress() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.steps)
}

func TestStartHappyPath(t *testing.T) {
	h := newHarness(t)
	cfg := h.config()
	cfg.SandboxSpecID = "spec-python"
	s := h.session(t, cfg)
	ctx := context.Background()

	target, err := s.Start(ctx)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	want := Target{AgentServerURL: "https://sb-1.runtime.example", ConversationID: fakeConvID, SessionKey: fakeSessionKey}
	if target != want {
		t.Fatalf("target = %#v, want %s", target, want)
	}
	if got := s.SandboxID(); got != "sb-1" {
		t.Errorf("SandboxID = %q, want sb-1", got)
	}
	if deletes, _, _ := h.cloud.snapshot(); len(deletes) != 0 {
		t.Fatalf("sandbox deleted before Close: %v", deletes)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	deletes, _, reqs := h.cloud.snapshot()
	if !slices.Equal(deletes, []string{"sb-1"}) {
		t.Errorf("deletes = %v, want exactly [sb-1]", deletes)
	}

	// The requests follow the schema: spec id as a query parameter, batch
	// reads by id/ids, the delete id in both the path and the query.
	wantReqs := []recordedRequest{
		{"POST", "/api/v1/sandboxes", "sandbox_spec_id=spec-python"},
		{"GET", "/api/v1/sandboxes", "id=sb-1"},
		{"POST", "/api/v1/app-conversations", ""},
		{"GET", "/api/v1/app-conversations/start-tasks", "ids=" + fakeTaskID},
		{"DELETE", "/api/v1/sandboxes/sb-1", "sandbox_id=sb-1"},
	}
	for _, w := range wantReqs {
		if !slices.Contains(reqs, w) {
			t.Errorf("no request %v in %v", w, reqs)
		}
	}

	body := h.cloud.startRequests[0]
	raw, _ := json.Marshal(body)
	wantBody := `{"initial_message":{"content":[{"text":"Say hello in one short sentence, then stop.","type":"text"}],"role":"user","run":true},"sandbox_id":"sb-1","title":"ohwatch"}`
	if string(raw) != wantBody {
		t.Errorf("start request body\n got %s\nwant %s", raw, wantBody)
	}

	steps := h.progress()
	for _, w := range []string{"creating sandbox", "sandbox STARTING", "sandbox RUNNING", "starting conversation",
		"start task WORKING", "start task WAITING_FOR_SANDBOX", "start task READY",
		"conversation " + fakeConvID + " ready", "deleting sandbox sb-1", "sandbox sb-1 deleted"} {
		if !slices.Contains(steps, w) {
			t.Errorf("progress lacks %q: %q", w, steps)
		}
	}
	// Repeated polls of one status are reported once.
	if n := countOf(steps, "sandbox STARTING"); n != 1 {
		t.Errorf("\"sandbox STARTING\" reported %d times, want 1", n)
	}
}

func countOf(xs []string, x string) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

func TestStartWithoutMessageSendsNoInitialMessage(t *testing.T) {
	h := newHarness(t)
	cfg := h.config()
	cfg.Message = ""
	s := h.session(t, cfg)
	defer s.Close(context.Background())
	if _, err := s.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if _, ok := h.cloud.startRequests[0]["initial_message"]; ok {
		t.Errorf("initial_message sent without a message: %v", h.cloud.startRequests[0])
	}
}

// TestStartFailuresStillDelete covers every way Start fails after the
// sandbox exists: Close must still delete it.
func TestStartFailuresStillDelete(t *testing.T) {
	tests := []struct {
		name        string
		sandbox     []string
		detail      string
		task        []string
		taskDetail  string
		pollTimeout time.Duration
		wantErr     error
		wantText    []string
	}{
		{name: "sandbox ERROR", sandbox: []string{"STARTING", "ERROR"}, detail: "ImagePullBackOff",
			wantErr: ErrSandbox, wantText: []string{"sb-1 is ERROR", "ImagePullBackOff"}},
		{name: "sandbox MISSING", sandbox: []string{"MISSING"},
			wantErr: ErrSandbox, wantText: []string{"sb-1 is MISSING"}},
		{name: "start task ERROR", task: []string{"WORKING", "PREPARING_REPOSITORY", "ERROR"}, taskDetail: "Insufficient credits",
			wantErr: ErrStartTask, wantText: []string{"Insufficient credits"}},
		{name: "sandbox poll timeout", sandbox: []string{"STARTING"}, pollTimeout: 30 * time.Millisecond,
			wantErr: ErrTimeout, wantText: []string{"sandbox sb-1", "last status STARTING"}},
		{name: "start task poll timeout", task: []string{"WORKING", "WAITING_FOR_SANDBOX"}, pollTimeout: 30 * time.Millisecond,
			wantErr: ErrTimeout, wantText: []string{"start task", "last status WAITING_FOR_SANDBOX"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			if tt.sandbox != nil {
				h.cloud.sandboxStatuses = tt.sandbox
			}
			h.cloud.sandboxDetail = tt.detail
			if tt.task != nil {
				h.cloud.taskStatuses = tt.task
			}
			h.cloud.taskDetail = tt.taskDetail
			cfg := h.config()
			if tt.pollTimeout > 0 {
				cfg.PollTimeout = tt.pollTimeout
			}
			s := h.session(t, cfg)
			_, err := s.Start(context.Background())
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Start error = %v, want %v", err, tt.wantErr)
			}
			for _, w := range tt.wantText {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if err := s.Close(context.Background()); err != nil {
				t.Fatalf("Close: %v", err)
			}
			if deletes, _, _ := h.cloud.snapshot(); !slices.Equal(deletes, []string{"sb-1"}) {
				t.Errorf("deletes = %v, want [sb-1]", deletes)
			}
		})
	}
}

func TestKeepLeavesSandbox(t *testing.T) {
	h := newHarness(t)
	cfg := h.config()
	cfg.Keep = true
	s := h.session(t, cfg)
	if _, err := s.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	deletes, _, reqs := h.cloud.snapshot()
	if len(deletes) != 0 {
		t.Errorf("Keep: sandbox deleted: %v", deletes)
	}
	for _, r := range reqs {
		if r.Method == "DELETE" {
			t.Errorf("Keep: DELETE sent: %v", r)
		}
	}
	if s.SandboxID() != "sb-1" {
		t.Errorf("SandboxID = %q, want sb-1 (to tell the user what is left running)", s.SandboxID())
	}
	if !slices.Contains(h.progress(), "sandbox sb-1 kept") {
		t.Errorf("progress lacks the kept notice: %q", h.progress())
	}
}

// TestCloseAfterInterrupt is Ctrl-C during the sandbox wait: Start returns
// the cancellation, and Close with the cancelled context still deletes.
func TestCloseAfterInterrupt(t *testing.T) {
	h := newHarness(t)
	h.cloud.sandboxStatuses = []string{"STARTING"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := h.config()
	cfg.OnProgress = func(stage string) {
		if stage == "sandbox STARTING" {
			cancel()
		}
	}
	s := h.session(t, cfg)
	_, err := s.Start(ctx)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("Start error = %v, want context.Canceled", err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatalf("Close with a cancelled context: %v", err)
	}
	if deletes, _, _ := h.cloud.snapshot(); !slices.Equal(deletes, []string{"sb-1"}) {
		t.Errorf("deletes = %v, want [sb-1]", deletes)
	}
}

func TestCloseWithoutSandboxSendsNothing(t *testing.T) {
	h := newHarness(t)
	s := h.session(t, h.config())
	if err := s.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, _, reqs := h.cloud.snapshot(); len(reqs) != 0 {
		t.Errorf("requests sent: %v", reqs)
	}
}

func TestOpenChoosesAttachOrStart(t *testing.T) {
	h := newHarness(t)
	h.cloud.addConversation("RUNNING")
	cfg := h.config()
	cfg.ConversationID = fakeConvID
	s := h.session(t, cfg)
	if _, err := s.Open(context.Background()); err != nil {
		t.Fatalf("Open (attach): %v", err)
	}
	if _, _, reqs := h.cloud.snapshot(); slices.ContainsFunc(reqs, func(r recordedRequest) bool { return r.Method == "POST" }) {
		t.Errorf("attach sent a POST: %v", reqs)
	}

	h2 := newHarness(t)
	s2 := h2.session(t, h2.config())
	defer s2.Close(context.Background())
	if _, err := s2.Open(context.Background()); err != nil {
		t.Fatalf("Open (start): %v", err)
	}
	if s2.SandboxID() == "" {
		t.Error("Open without a conversation id started no sandbox")
	}
}

func TestUnauthorizedIsErrAuth(t *testing.T) {
	h := newHarness(t)
	cfg := h.config()
	cfg.APIKey = "wrong-key-5a6b7c"
	s := h.session(t, cfg)
	_, err := s.Start(context.Background())
	if !errors.Is(err, ErrAuth) {
		t.Fatalf("Start error = %v, want ErrAuth", err)
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 401 || apiErr.Detail != "Not authenticated" {
		t.Errorf("error = %#v, want a 401 APIError with the server's detail", err)
	}
	if strings.Contains(err.Error(), cfg.APIKey) {
		t.Errorf("error quotes the key: %v", err)
	}
	if !strings.Contains(err.Error(), "OH_API_KEY") {
		t.Errorf("error %q does not say how to fix it", err)
	}

	if _, err := s.Attach(context.Background(), fakeConvID); !errors.Is(err, ErrAuth) {
		t.Errorf("Attach error = %v, want ErrAuth", err)
	}
}

// TestTransientFailuresAreRetried: a 503 from the gateway during a wait is
// reported and polled through; a 503 outside a wait is an error.
func TestTransientFailuresAreRetried(t *testing.T) {
	h := newHarness(t)
	h.cloud.failures["GET /api/v1/sandboxes"] = 2
	h.cloud.failures["GET /api/v1/app-conversations/start-tasks"] = 1
	s := h.session(t, h.config())
	defer s.Close(context.Background())
	if _, err := s.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if !slices.ContainsFunc(h.progress(), func(s string) bool { return strings.HasPrefix(s, "retrying after:") && strings.Contains(s, "HTTP 503") }) {
		t.Errorf("progress does not show the retry: %q", h.progress())
	}

	h2 := newHarness(t)
	h2.cloud.failures["POST /api/v1/sandboxes"] = 1
	s2 := h2.session(t, h2.config())
	var apiErr *APIError
	if _, err := s2.Start(context.Background()); !errors.As(err, &apiErr) || apiErr.Status != 503 {
		t.Fatalf("Start error = %v, want the 503", err)
	}
}

// TestStartFallsBackToConversation: when the sandbox hands out no session
// key, the key and URL come from the AppConversation.
func TestStartFallsBackToConversation(t *testing.T) {
	h := newHarness(t)
	h.cloud.sandboxSessionKey = ""
	s := h.session(t, h.config())
	defer s.Close(context.Background())
	target, err := s.Start(context.Background())
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if target.SessionKey != fakeSessionKey || target.AgentServerURL != "https://sb-1.runtime.example" {
		t.Errorf("target = %s (key %q)", target, target.SessionKey)
	}
	if _, _, reqs := h.cloud.snapshot(); !slices.Contains(reqs, recordedRequest{"GET", "/api/v1/app-conversations", "ids=" + fakeConvID}) {
		t.Errorf("the conversation was not read: %v", reqs)
	}
}

func TestSessionStartsOneSandbox(t *testing.T) {
	h := newHarness(t)
	s := h.session(t, h.config())
	defer s.Close(context.Background())
	if _, err := s.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if _, err := s.Start(context.Background()); err == nil {
		t.Fatal("a second Start succeeded and would orphan the first sandbox")
	}
}
