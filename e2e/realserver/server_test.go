package realserver

import (
	"bytes"
	"context"
	"encoding/json"

	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// serverKey is the session key of every server of the suite: long enough
// that redacting it from the output never touches ordinary words.
const serverKey = "rs-7f3a9c2e51d84b06e2"

// llmDelay is the scripted LLM's seconds per answer: small, so the suite is
// quick, but a run still streams over the WebSocket.
const llmDelay = "0.05"

// startBound bounds a server's start: a failure limit, not a wait. The
// start is seconds of CPU (the SDK's imports), so beside other builds on
// two cores it can take minutes.
const startBound = 5 * time.Minute

// server is one real agent-server the suite started.
type server struct {
	dir  string // RUNDIR: conversations/, project/
	port string
	env  []string
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	log  *lockedBuffer
}

var (
	serversMu sync.Mutex
	servers   []*server
)

// stopAll kills every server still running: TestMain's last word.
func stopAll() {
	serversMu.Lock()
	defer serversMu.Unlock()
	for _, s := range servers {
		s.stop()
	}
}

// startServer starts serve_real.py with the suite's scripted LLM
// (testdata/scenario_llm.py) on a free port, its state under dir, and
// waits until it answers.
func startServer(dir string, env []string) (*server, error) {
	if err := os.MkdirAll(filepath.Join(dir, "project"), 0o755); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	scenario, err := filepath.Abs(filepath.Join("testdata", "scenario_llm.py"))
	if err != nil {
		return nil, err
	}
	s := &server{dir: dir, port: port}
	s.env = append(os.Environ(),
		"PORT="+port, "SESSION_API_KEY="+serverKey, "FAKELLM_DELAY="+llmDelay, "FAKELLM_FILE="+scenario,
		"OH_CONVERSATIONS_PATH="+filepath.Join(dir, "conversations"), "OH_WORKSPACE_PATH="+filepath.Join(dir, "project"),
		"OH_BASH_EVENTS_DIR="+filepath.Join(dir, "bash_events"), "OH_CONVERSATION_WORKTREE_ROOT="+filepath.Join(dir, "wt"),
		"OH_ENABLE_VSCODE=false", "OH_ENABLE_VNC=false", "OH_PRELOAD_TOOLS=false", "TMUX_TMPDIR="+filepath.Join(dir, "tmux"))
	if cache := pycache(); cache != "" {
		// The kit's sources are read-only: without a cache of its own
		// every start compiles them all again.
		s.env = append(s.env, "PYTHONDONTWRITEBYTECODE=", "PYTHONPYCACHEPREFIX="+cache)
	}
	s.env = append(s.env, env...)
	serversMu.Lock()
	servers = append(servers, s)
	serversMu.Unlock()
	return s, s.start()
}

// start runs the server process and waits for /server_info.
func (s *server) start() error {
	s.mu.Lock()
	cmd := exec.Command("python3", filepath.Join(kit, "serve_real.py"))
	cmd.Dir = s.dir
	cmd.Env = s.env
	s.log = new(lockedBuffer)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	cmd.SysProcAttr = serverProcAttr()
	if err := cmd.Start(); err != nil {
		s.mu.Unlock()
		return err
	}
	s.cmd, s.done = cmd, make(chan struct{})
	done := s.done
	go func() { _ = cmd.Wait(); close(done) }()
	s.mu.Unlock()
	deadline := time.Now().Add(startBound)
	for {
		resp, err := http.Get(s.url() + "/server_info")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-done:
			return fmt.Errorf("the agent-server exited at start:\n%s", s.logTail())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return fmt.Errorf("the agent-server did not answer in %s:\n%s", startBound, s.logTail())
		}
	}
}

// pycache is where the servers' Python keeps the kit's compiled modules
// between runs, as the go command keeps its build cache ("" for none).
func pycache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "ohwatch", "realserver-pycache")
}

// stop kills the server's process group and waits for it.
func (s *server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
	s.cmd = nil
}

// lockedBuffer is the server's log: the process writes it from exec's
// copying goroutine while a failing test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// logTail is the end of the server's log, for a failure message.
func (s *server) logTail() string {
	l := s.log.String()
	if len(l) > 4000 {
		l = l[len(l)-4000:]
	}
	return l
}

func (s *server) url() string { return "http://127.0.0.1:" + s.port }

// folder is the server's own persistence folder of conversation id.
func (s *server) folder(id string) string {
	return filepath.Join(s.dir, "conversations", strings.ReplaceAll(id, "-", ""))
}

// ownServer is a server for one test alone, stopped with it: one TestMain
// started ahead if one is left, else one started now.
func ownServer(t *testing.T) *server {
	t.Helper()
	sparesMu.Lock()
	ahead := sparesLeft > 0
	if ahead {
		sparesLeft--
	}
	sparesMu.Unlock()
	var sp spare
	if ahead {
		sp = <-spares
	} else {
		sp.s, sp.err = startServer(t.TempDir(), nil)
	}
	s, err := sp.s, sp.err
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", s.logTail())
		}
		s.stop()
	})
	return s
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}

// convSpec is what a new conversation is made with.
type convSpec struct {
	message string
	confirm bool // AlwaysConfirm
	tracker bool // the task_tracker tool (an action confirmation holds)
	// noRun creates it without its message: the server runs an initial
	// message whatever its "run" says, so the test sends it (sendMessage)
	// once a watch is live.
	noRun    bool
	analyzer bool // the LLM security analyzer: the scripted risks count
}

// create POSTs /api/conversations as the kit's start_conv.py does and
// returns the new conversation's id.
func (s *server) create(t *testing.T, c convSpec) string {
	t.Helper()
	tools := []any{}
	if c.tracker {
		tools = append(tools, map[string]any{"name": "task_tracker"})
	}
	body := map[string]any{
		"agent": map[string]any{
			"kind": "Agent",
			"llm": map[string]any{"model": "openai/fake-scripted", "usage_id": "fake-llm",
				"api_key": "not-used", "input_cost_per_token": 0.0},
			"tools":                 tools,
			"include_default_tools": []string{"FinishTool", "ThinkTool"},
		},
		"workspace":      map[string]any{"kind": "LocalWorkspace", "working_dir": filepath.Join(s.dir, "project")},
		"max_iterations": 200,
	}
	if !c.noRun {
		body["initial_message"] = map[string]any{"role": "user", "run": true,
			"content": []any{map[string]any{"type": "text", "text": c.message}}}
	}
	if c.confirm {
		body["confirmation_policy"] = map[string]any{"kind": "AlwaysConfirm"}
	}
	if c.analyzer {
		body["security_analyzer"] = map[string]any{"kind": "LLMSecurityAnalyzer"}
	}
	var out struct {
		ID string `json:"id"`
	}
	s.post(t, "/api/conversations", body, &out)
	if out.ID == "" {
		t.Fatal("POST /api/conversations: no id")
	}
	return out.ID
}

// post POSTs body as JSON and decodes the answer into out (may be nil).
func (s *server) post(t *testing.T, route string, body, out any) {
	t.Helper()
	if err := s.do(http.MethodPost, route, body, out); err != nil {
		t.Fatal(err)
	}
}

// get GETs a route and decodes the answer into out.
func (s *server) get(t *testing.T, route string, out any) {
	t.Helper()
	if err := s.do(http.MethodGet, route, nil, out); err != nil {
		t.Fatal(err)
	}
}

func (s *server) do(method, route string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.url()+route, rd)
	if err != nil {
		return err
	}
	req.Header.Set("X-Session-API-Key", serverKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, route, resp.Status, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// info is the part of GET /api/conversations/{id} the tests read.
type info struct {
	ID              string `json:"id"`
	ExecutionStatus string `json:"execution_status"`
	LeafEventID     string `json:"leaf_event_id"`
	Title           string `json:"title"`
}

// info is GET /api/conversations/{id}. The real server can answer 500
// while it rewrites the conversation's state file (a read of a half-written
// base_state.json): an answer is retried until it is whole.
func (s *server) info(t *testing.T, id string) info {
	t.Helper()
	var i info
	var err error
	if !eventually(runBound, func() bool {
		err = s.do(http.MethodGet, "/api/conversations/"+id, nil, &i)
		return err == nil
	}) {
		t.Fatal(err)
	}
	return i
}

// serverEvent is an event as /events/search lists it.
type serverEvent struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

// events lists every event of conversation id, all pages.
func (s *server) events(t *testing.T, id string) []serverEvent {
	t.Helper()
	var all []serverEvent
	page := ""
	for {
		var p struct {
			Items    []serverEvent `json:"items"`
			NextPage *string       `json:"next_page_id"`
		}
		route := "/api/conversations/" + id + "/events/search?limit=100"
		if page != "" {
			route += "&page_id=" + page
		}
		s.get(t, route, &p)
		all = append(all, p.Items...)
		if p.NextPage == nil || *p.NextPage == "" {
			return all
		}
		page = *p.NextPage
	}
}

// waitStatus waits until the server reports one of the statuses for
// conversation id, and returns it.
func (s *server) waitStatus(t *testing.T, id string, statuses ...string) string {
	t.Helper()
	var last string
	ok := eventually(60*time.Second, func() bool {
		var i info
		if err := s.do(http.MethodGet, "/api/conversations/"+id, nil, &i); err != nil {
			return false
		}
		last = i.ExecutionStatus
		for _, st := range statuses {
			if last == st {
				return true
			}
		}
		return false
	})
	if !ok {
		t.Fatalf("conversation %s: status %q after 60s, want one of %v", id, last, statuses)
	}
	return last
}

// eventually polls cond until it holds or the bound passes: the bound is
// only a failure limit, never a wait.
func eventually(bound time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(bound)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}
