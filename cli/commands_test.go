package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"ohwatch/session"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/serve"
)

// runCmd runs a command in-process, as `ohwatch args...` would, with stdout
// not a terminal (so the view commands are headless).
func runCmd(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &session.Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }}
	code = run(args, e)
	return code, out.String(), errb.String()
}

// shapesRoot is a conversations root holding the project's CLI-shaped
// recordings (fixtures.Shapes), each in its own directory: the twin of
// ../shared's trajectories/ root. The copies are dated an hour ago, so a
// table reads them as recordings, not as conversations being written.
func shapesRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for _, name := range fixtures.Shapes {
		dir := filepath.Join(root, name)
		if err := os.CopyFS(dir, os.DirFS(fixtures.Path(t, name))); err != nil {
			t.Fatal(err)
		}
		err := filepath.WalkDir(dir, func(path string, _ os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(path, old, old)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// twin is the project's own recording of the shape of the upstream
// trajectory name (see internal/fixtures), which every clone has.
func twin(t *testing.T, name string) string {
	t.Helper()
	own, ok := map[string]string{
		"simple_echo_hello_world":             fixtures.Echo,
		"confirmation_mode":                   fixtures.Confirm,
		"creating_agent_plan":                 fixtures.Plan,
		"cli447_hi_followup_iterative_case_a": fixtures.Critic,
	}[name]
	if !ok {
		t.Fatalf("no own recording of the shape of %s", name)
	}
	return fixtures.Path(t, own)
}

func TestStateJSONHasExactlyTheDocumentedKeys(t *testing.T) {
	code, out, errs := runCmd(t, nil, "state", twin(t, "simple_echo_hello_world"), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	want := []string{"id", "title", "events", "at", "status", "status_source", "status_confirmed", "status_final", "verdict", "iteration", "steps",
		"metrics", "tasks", "pending_actions", "errors", "kinds", "unknown_kinds", "duplicates", "warnings", "as_of"}
	var got []string
	for k := range doc {
		got = append(got, k)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("keys = %v\nwant %v", got, want)
	}
	metrics := doc["metrics"].(map[string]any)
	for _, k := range []string{"metrics_reported", "cost_usd", "cost_known", "prompt_tokens", "completion_tokens", "cache_read_tokens",
		"cache_write_tokens", "reasoning_tokens", "llm_calls", "context_used", "context_window", "by_usage"} {
		if _, ok := metrics[k]; !ok {
			t.Errorf("metrics lacks %q", k)
		}
	}
	if doc["events"].(float64) != 5 || doc["at"].(float64) != 5 || doc["status"] != "finished" {
		t.Errorf("events/at/status = %v/%v/%v", doc["events"], doc["at"], doc["status"])
	}
}

// TestStateAndExportJSONNameTheConversation: state --json and export
// --format json carry the conversation's id and title, and its status
// under the one name every command's JSON uses ("status", as ls --json).
func TestStateAndExportJSONNameTheConversation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0123456789abcdef0123456789abcdef")
	if code, _, errs := runCmd(t, nil, "gen", dir, "--events", "40"); code != 0 {
		t.Fatal(errs)
	}
	_, lsOut, _ := runCmd(t, nil, "ls", filepath.Dir(dir), "--json")
	var listed []map[string]any
	if err := json.Unmarshal([]byte(lsOut), &listed); err != nil || len(listed) != 1 {
		t.Fatalf("ls --json: %v\n%s", err, lsOut)
	}
	for _, args := range [][]string{{"state", dir, "--json"}, {"export", dir, "--format", "json"}} {
		code, out, errs := runCmd(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		for _, k := range []string{"id", "title", "status"} {
			if doc[k] != listed[0][k] || doc[k] == "" {
				t.Errorf("%v: %s = %v, ls --json says %v", args, k, doc[k], listed[0][k])
			}
		}
		if _, ok := doc["execution_status"]; ok {
			t.Errorf("%v: the status has a second name", args)
		}
	}
}

func TestStateAtAppliesAPrefix(t *testing.T) {
	_, out, _ := runCmd(t, nil, "state", twin(t, "simple_echo_hello_world"), "--at", "2", "--json")
	var doc struct {
		Events int    `json:"events"`
		At     int    `json:"at"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Events != 5 || doc.At != 2 || doc.Status != "running" {
		t.Errorf("got %+v", doc)
	}
	code, text, _ := runCmd(t, nil, "state", twin(t, "creating_agent_plan"))
	if code != 0 || !strings.Contains(text, "tasks          5: 0 done, 0 in progress, 5 todo") {
		t.Errorf("text state:\n%s", text)
	}
}

func TestReplayHeadlessExitsByFinalState(t *testing.T) {
	code, out, errs := runCmd(t, nil, "replay", twin(t, "simple_echo_hello_world"), "--headless")
	if code != headless.ExitFinished || !strings.Contains(out, "terminal state reached: finished") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	// A recording cut before its end has no terminal state: exit 5.
	dir := t.TempDir()
	src := filepath.Join(twin(t, "simple_echo_hello_world"), "events")
	entries, _ := os.ReadDir(src)
	os.MkdirAll(filepath.Join(dir, "events"), 0o755)
	for _, e := range entries[:3] {
		b, _ := os.ReadFile(filepath.Join(src, e.Name()))
		os.WriteFile(filepath.Join(dir, "events", e.Name()), b, 0o644)
	}
	if code, out, _ := runCmd(t, nil, "replay", dir, "--headless"); code != headless.ExitNoTerminal {
		t.Fatalf("truncated recording: exit %d\n%s", code, out)
	}
}

func TestDemoHeadlessReachesConfirmedFinished(t *testing.T) {
	code, out, errs := runCmd(t, nil, "demo", "--headless", "--speed", "400")
	if code != headless.ExitFinished {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"(provisional — awaiting full_state confirmation)", ">> execution_status=finished (full_state)",
		">> execution_status=waiting_for_confirmation", "terminal state reached: finished"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
}

// TestWatchKeepsTheKeySecret watches a real server with a session key and
// searches everything ohwatch produced — stdout, stderr, the log file and
// the recording — for the key.
func TestWatchKeepsTheKeySecret(t *testing.T) {
	const key = "sk-very-secret-session-key-0123456789"
	conv, err := files.Load(twin(t, "simple_echo_hello_world"))
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.Options{Key: key, Speed: 0, FinishConfirmDelay: 1})
	id := "1f6f2ccc343c43749a75342cea50f197"
	srv.Add(id, conv.Base, conv.Events)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, err := srv.Start(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	dir := t.TempDir()
	rec, logFile := filepath.Join(dir, "rec"), filepath.Join(dir, "ohwatch.log")
	env := map[string]string{"SESSION_API_KEY": key}
	code, out, errs := runCmd(t, env, "watch", url, "--conversation", id, "--json", "--record", rec, "--log", logFile, "--watch-timeout", "20s")
	if code != headless.ExitFinished {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	produced := out + errs
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			produced += string(b)
		}
		return nil
	})
	if strings.Contains(produced, key) {
		t.Fatal("the session key appears in ohwatch's output, log or recording")
	}
	got, err := files.Load(rec)
	if err != nil {
		t.Fatalf("recording: %v", err)
	}
	// The source's events, byte for byte, and the per-field status updates
	// the server sent between them (the source has none).
	var recorded []model.Event
	for _, ev := range got.Events {
		if u, ok := ev.Body.(*model.StateUpdate); ok && u.Key == "execution_status" {
			continue
		}
		recorded = append(recorded, ev)
	}
	if len(recorded) != len(conv.Events) {
		t.Fatalf("recording: %d events, want %d", len(recorded), len(conv.Events))
	}
	for i := range recorded {
		if !bytes.Equal(recorded[i].Raw, conv.Events[i].Raw) {
			t.Fatalf("recorded event %d differs from the source", i)
		}
	}

	// A wrong key is rejected: exit 4, and the wrong key is not echoed.
	env["SESSION_API_KEY"] = "wrong-key-also-secret"
	code, out, errs = runCmd(t, env, "watch", url, "--conversation", id, "--headless", "--watch-timeout", "20s")
	if code != headless.ExitUnreachable {
		t.Fatalf("wrong key: exit %d\n%s%s", code, out, errs)
	}
	if strings.Contains(out+errs, "wrong-key-also-secret") {
		t.Fatal("the rejected key was printed")
	}
}

func TestExportFormats(t *testing.T) {
	path := twin(t, "creating_agent_plan")
	code, md, errs := runCmd(t, nil, "export", path, "--format", "md")
	if code != 0 || !strings.Contains(md, "# ") || !strings.Contains(md, "- [ ]") {
		t.Fatalf("md: exit %d %s\n%s", code, errs, md)
	}
	code, js, _ := runCmd(t, nil, "export", path, "--format", "json")
	if code != 0 || !json.Valid([]byte(js)) {
		t.Fatalf("json: exit %d\n%s", code, js)
	}
	code, jl, _ := runCmd(t, nil, "export", path, "--format", "jsonl")
	lines := strings.Split(strings.TrimSpace(jl), "\n")
	if code != 0 || len(lines) != 7 {
		t.Fatalf("jsonl: exit %d, %d lines", code, len(lines))
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Fatalf("invalid JSONL line %q", l)
		}
	}
}

func TestGenAndListLocalRoot(t *testing.T) {
	root := t.TempDir()
	conv := filepath.Join(root, "0123456789abcdef0123456789abcdef")
	if code, _, errs := runCmd(t, nil, "gen", conv, "--events", "300", "--seed", "7"); code != 0 {
		t.Fatalf("gen: %s", errs)
	}
	code, out, errs := runCmd(t, nil, "ls", root, "--json")
	if code != 0 {
		t.Fatalf("ls: %s", errs)
	}
	var rows []listing
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("ls --json: %v\n%s", err, out)
	}
	if rows[0].ID == "" || rows[0].Events != 300 || rows[0].Status != "finished" || !rows[0].CostKnown {
		t.Errorf("row = %+v", rows[0])
	}
	if code, out, _ := runCmd(t, nil, "ls", root); code != 0 || !strings.Contains(out, rows[0].ID) || !strings.Contains(out, "finished") {
		t.Errorf("ls table:\n%s", out)
	}
}

func TestBadUsageIsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"nonsense"},
		{"state"},
		{"state", "/does/not/exist"},
		{"watch", "http://127.0.0.1:1"},
		{"export", ".", "--format", "pdf"},
		{"replay", "--bogus-flag", "x"},
	} {
		if code, _, _ := runCmd(t, nil, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if code, _, _ := runCmd(t, nil, "state", "-h"); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
}

func TestWatchUnreachableIsExit4(t *testing.T) {
	t.Parallel()
	code, out, errs := runCmd(t, nil, "watch", "http://127.0.0.1:1", "--conversation", "0123456789abcdef0123456789abcdef", "--headless", "--watch-timeout", "20s")
	if code != headless.ExitUnreachable {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}

func TestListWithoutLocalConversationsIsNotAnError(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"OPENHANDS_CONVERSATIONS_DIR": filepath.Join(home, "none")}
	t.Setenv("OPENHANDS_CONVERSATIONS_DIR", env["OPENHANDS_CONVERSATIONS_DIR"])
	code, out, errs := runCmd(t, env, "ls", "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" || !strings.Contains(errs, "does not exist") {
		t.Fatalf("exit %d, out %q, err %q", code, out, errs)
	}
	if code, _, _ := runCmd(t, nil, "ls", filepath.Join(home, "typo")); code != exitUsage {
		t.Errorf("a PATH that does not exist: exit %d, want %d", code, exitUsage)
	}
}
