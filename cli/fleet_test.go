package cli

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/session"

	"ohwatch/gen"
	"ohwatch/headless"
	"ohwatch/serve"
)

// serveEndings serves, under key, one generated conversation per end
// ("finished", "error", "stuck"), everything at once, and returns the URL
// and the ids.
func serveEndings(t *testing.T, key string, seed int64, ends ...string) (string, []string) {
	t.Helper()
	srv := serve.New(serve.Options{Key: key, Speed: 0, FinishConfirmDelay: 1})
	var ids []string
	for i, end := range ends {
		evs, err := generatedEnding(20+i, seed+int64(i), end)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("%08x%024x", seed, i+1)
		srv.Add(id, nil, evs)
		ids = append(ids, id)
	}
	return startTestServer(t, srv), ids
}

// TestFleetHeadlessUntilExitCodes watches fleets served by the real serve,
// headless: --until all exits with the worst outcome of every
// conversation, --until any with that of the first to reach a terminal
// state; each conversation's status line names it.
func TestFleetHeadlessUntilExitCodes(t *testing.T) {
	cases := []struct {
		ends  []string
		until string
		want  int
	}{
		{[]string{"finished", "finished"}, "all", headless.ExitFinished},
		{[]string{"finished", "error", "stuck"}, "all", headless.ExitError},
		{[]string{"stuck", "finished"}, "all", headless.ExitStuck},
		{[]string{"stuck", "stuck"}, "any", headless.ExitStuck},
	}
	for i, c := range cases {
		t.Run(c.until+" "+strings.Join(c.ends, ","), func(t *testing.T) {
			url, ids := serveEndings(t, "", int64(100+10*i), c.ends...)
			code, out, errs := runCmd(t, nil, "fleet", url, "--headless", "--until", c.until, "--interval", "50ms")
			if code != c.want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.want, out, errs)
			}
			for _, id := range ids {
				if !strings.Contains(out, id) {
					t.Errorf("no line names %s:\n%s", id, out)
				}
			}
		})
	}
}

// TestFleetUntilAllWaitsForRunsNotYetStarted: a fleet started before its
// server's conversations have begun to run (listed idle: created, their
// start held) waits for them. Each is started only once the fleet has
// printed it idle, and --until all ends on their outcomes, exit 1 (one
// error). The fleet ended at once on the idle listing before (exit 5).
func TestFleetUntilAllWaitsForRunsNotYetStarted(t *testing.T) {
	srv := serve.New(serve.Options{Speed: 0, StartPaused: true, FinishConfirmDelay: 1})
	ends := []string{"finished", "error", "finished"}
	var ids []string
	for i, end := range ends {
		evs, err := generatedEnding(20+i, int64(700+i), end)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("%08x%024x", 700, i+1)
		srv.Add(id, nil, evs)
		ids = append(ids, id)
	}
	url := startTestServer(t, srv)
	out := &lineWatch{news: make(chan struct{}, 1)}
	var errb bytes.Buffer
	env := &session.Env{Stdout: out, Stderr: &errb, Getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"fleet", url, "--headless", "--until", "all", "--interval", "50ms"}, env)
	}()
	for _, id := range ids {
		if !out.waitFor(done, id+"  unknown -> idle") {
			t.Fatalf("the fleet did not list %s idle:\n%s", id, out.String())
		}
	}
	for _, id := range ids {
		srv.Run(id)
	}
	code := <-done
	if code != headless.ExitError || !strings.Contains(out.String(), "every conversation ended; 3 conversations: 1 error, 2 finished (exit 1)") {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, headless.ExitError, out.String(), errb.String())
	}
}

// lineWatch is a stdout a test reads while the command writes it.
type lineWatch struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	news chan struct{}
}

func (w *lineWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.news <- struct{}{}:
	default:
	}
	return w.buf.Write(p)
}

func (w *lineWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// waitFor waits until the output holds s; false when the command ended
// (done) without it or a minute passed (a failure limit, not a wait).
func (w *lineWatch) waitFor(done chan int, s string) bool {
	limit := time.After(time.Minute)
	for !strings.Contains(w.String(), s) {
		select {
		case <-w.news:
		case code := <-done:
			done <- code
			return strings.Contains(w.String(), s)
		case <-limit:
			return false
		}
	}
	return true
}

// TestFleetKeyPerServer watches two servers with a key each, given by
// --session-key-file URL=FILE: every conversation of both is watched to
// its end, and neither key reaches the output.
func TestFleetKeyPerServer(t *testing.T) {
	const keyA, keyB = "sk-fleet-a-7d3c2b1a0f", "sk-fleet-b-5f1b4a7e9c"
	urlA, idsA := serveEndings(t, keyA, 300, "finished")
	urlB, idsB := serveEndings(t, keyB, 400, "finished", "finished")
	dir := t.TempDir()
	fileA, fileB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(fileA, []byte(keyA+"\n"), 0o600)
	os.WriteFile(fileB, []byte(keyB), 0o600)
	code, out, errs := runCmd(t, nil, "fleet", urlA, urlB, "--headless", "--until", "all", "--interval", "50ms",
		"--session-key-file", urlA+"="+fileA, "--session-key-file", urlB+"/="+fileB)
	if code != headless.ExitFinished {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, id := range append(idsA, idsB...) {
		if !strings.Contains(out, id) {
			t.Errorf("no line names %s", id)
		}
	}
	if strings.Contains(out+errs, keyA) || strings.Contains(out+errs, keyB) {
		t.Error("a session key reached the output")
	}
}

// TestFleetLocalRoot watches a local root headless until every
// conversation ended: generated conversations that finished, read from
// disk.
func TestFleetLocalRoot(t *testing.T) {
	root := t.TempDir()
	for i := range 3 {
		if err := gen.WriteDir(filepath.Join(root, fmt.Sprintf("conv-%d", i)), gen.Options{Events: 30 + i, Seed: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCmd(t, nil, "fleet", root, "--headless", "--json", "--until", "all")
	if code != headless.ExitFinished {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for i := range 3 {
		if !strings.Contains(out, fmt.Sprintf(`"id":"conv-%d"`, i)) {
			t.Errorf("no line for conv-%d:\n%s", i, out)
		}
	}
}

// TestFleetBadUsage: each mistake is one line naming it and a hint, exit
// 2, nothing on stdout.
func TestFleetBadUsage(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key")
	os.WriteFile(keyFile, []byte("k"), 0o600)
	root := t.TempDir()
	cases := []struct {
		args    []string
		env     map[string]string
		mistake string
		hint    string
	}{
		{[]string{"--until", "sometimes", "--headless"}, nil, `--until "sometimes"`, "--until all"},
		{[]string{"/does/not/exist"}, nil, "/does/not/exist does not exist", "agent-server URL"},
		{[]string{"127.0.0.1:8000"}, nil, "does not exist", "http://127.0.0.1:8000"},
		{[]string{"ftp://127.0.0.1:8000"}, nil, "scheme must be http or https", "http://HOST:PORT"},
		{[]string{"cloud"}, nil, "no OpenHands Cloud API key", "OH_API_KEY"},
		{[]string{root, root}, nil, "given twice", "SOURCE"},
		{[]string{"http://127.0.0.1:1", "--session-key-file", "http://127.0.0.1:2=" + keyFile}, nil, "that server is not a SOURCE", "--session-key-file"},
		{[]string{"http://127.0.0.1:1", "--session-key-file", "http://127.0.0.1:1=/does/not/exist"}, nil, "--session-key-file: open /does/not/exist", "URL=FILE"},
		{[]string{"--interval", "0s"}, nil, "--interval must be more than 0", "--interval 10s"},
		{[]string{"--bogus"}, nil, "unknown flag --bogus", "ohwatch fleet -h"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, c.env, append([]string{"fleet"}, c.args...)...)
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if code != exitUsage || out != "" || len(lines) != 2 {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errs)
			}
			if !strings.Contains(lines[0], "ohwatch fleet: ") || !strings.Contains(lines[0], c.mistake) || !strings.Contains(lines[1], c.hint) {
				t.Errorf("want %q and hint %q:\n%s", c.mistake, c.hint, errs)
			}
		})
	}
}

// TestFleetUntilNeedsHeadless: in a terminal, --until without --headless
// is a mistake (the table does not exit by itself).
func TestFleetUntilNeedsHeadless(t *testing.T) {
	var out, errs strings.Builder
	env := &session.Env{Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }, IsTerminal: true}
	if code := run([]string{"fleet", t.TempDir(), "--until", "all"}, env); code != exitUsage || !strings.Contains(errs.String(), "--until needs --headless") {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
}

// TestFleetOTLPTraceEachConversation: with --otlp, every conversation of
// the fleet becomes its own trace in the backend, and the headless output
// is what it is without --otlp.
func TestFleetOTLPTraceEachConversation(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range 2 {
		dir := filepath.Join(root, fmt.Sprintf("conv-%d", i))
		if err := gen.WriteDir(dir, gen.Options{Events: 30, Seed: int64(i)}); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(filepath.Join(dir, "events"), old, old)
	}
	c := newOTLPCollector(t)
	code, out, errs := runCmd(t, nil, "fleet", root, "--headless", "--until", "all", "--otlp="+c.url)
	if code != headless.ExitFinished || !strings.Contains(errs, ", 0 dropped") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.traces) != 2 {
		t.Fatalf("%d traces for 2 conversations: %v", len(c.traces), c.traces)
	}
}

// TestFleetUntilWithASourceDown: a server that cannot be reached does not
// hold --until all back (its failure is its report), and the JSON lines
// say so as a source line.
func TestFleetUntilWithASourceDown(t *testing.T) {
	url, ids := serveEndings(t, "", 500, "finished")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	code, out, errs := runCmd(t, nil, "fleet", url, down, "--headless", "--json", "--until", "all", "--interval", "50ms")
	if code != headless.ExitFinished || !strings.Contains(out, ids[0]) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if !strings.Contains(out, `"type":"source","source":"`+down+`","source_kind":"server","connection":"reconnecting"`) {
		t.Errorf("no source line for the server that is down:\n%s", out)
	}
	if !strings.Contains(errs, down) {
		t.Errorf("stderr does not name the server that is down:\n%s", errs)
	}
}

// TestFleetUntilWithARejectedKeyIsUnreachable: the only server rejects the
// session key, so nothing can be reached: --until exits 4 at once (a
// rejected key is not retried), saying why on stderr, and the key is
// nowhere in the output.
func TestFleetUntilWithARejectedKeyIsUnreachable(t *testing.T) {
	url, _ := serveEndings(t, "sk-right-5f1b4a7e9c", 600, "finished")
	const wrong = "sk-wrong-7d3c2b1a0f"
	code, out, errs := runCmd(t, map[string]string{"SESSION_API_KEY": wrong}, "fleet", url, "--headless", "--json", "--until", "all", "--interval", "50ms")
	if code != headless.ExitUnreachable {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, headless.ExitUnreachable, out, errs)
	}
	if !strings.Contains(out, `"connection":"lost"`) || !strings.Contains(out, `"final":true`) || !strings.Contains(errs, "401") || !strings.Contains(errs, "given up") {
		t.Errorf("the rejection is not said:\nstdout:\n%s\nstderr:\n%s", out, errs)
	}
	if strings.Contains(out+errs, wrong) {
		t.Error("the session key reached the output")
	}
}
