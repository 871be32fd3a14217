package cloudserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ohwatch/internal/e2eproc"
)

// runBound bounds one ohwatch run or one wait on the app server: a failure
// limit, not a wait.
const runBound = 120 * time.Second

// apiKey is any key: the app server in OSS mode checks none, and ohwatch
// must keep it out of everything it prints all the same.
const apiKey = "cloudserver-e2e-key-4b1d9c"

// result is how an ohwatch run ended.
type result struct {
	stdout, stderr string
	code           int
}

// env is the environment of an ohwatch run against app server a.
func (a *appServer) env(extra ...string) []string {
	return append(append(os.Environ(), "OH_API_KEY="+apiKey, "OH_API_BASE="+a.url, "NO_COLOR=1"), extra...)
}

// ohwatch runs the binary against a to its end.
func (a *appServer) ohwatch(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, ohwatchBin, args...)
	cmd.Env = a.env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("ohwatch %v: still running after %s\nstdout:\n%s\nstderr:\n%s", args, runBound, r.stdout, r.stderr)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("ohwatch %v: %v", args, err)
	}
	if strings.Contains(r.stdout+r.stderr, apiKey) {
		t.Fatalf("ohwatch %v printed the API key", args)
	}
	return r
}

// cloudRun runs `ohwatch cloud` that starts a sandbox on a to its end,
// holding a.creating until the sandbox runs (see appServer.creating).
func (a *appServer) cloudRun(t *testing.T, args ...string) result {
	t.Helper()
	a.creating.Lock()
	l := a.start(t, append([]string{"cloud"}, args...)...)
	l.waitLineOrEnd("cloud: sandbox RUNNING")
	a.creating.Unlock()
	code, out := l.wait()
	r := result{stdout: out, stderr: strings.Join(l.stderr(), "\n") + "\n", code: code}
	if strings.Contains(r.stdout+r.stderr, apiKey) {
		t.Fatalf("ohwatch %v printed the API key", args)
	}
	return r
}

// live is an ohwatch run in the background whose stderr is read as it
// comes, so a test can act on what it said.
type live struct {
	t    *testing.T
	proc *e2eproc.Proc
	out  bytes.Buffer
}

// start runs ohwatch against a in the background; the test's cleanup
// kills it if it still runs.
func (a *appServer) start(t *testing.T, args ...string) *live {
	t.Helper()
	l := &live{t: t}
	cmd := exec.Command(ohwatchBin, args...)
	cmd.Env = a.env()
	cmd.Stdout = &l.out
	errp, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	l.proc = e2eproc.Start(t, cmd, errp)
	return l
}

// stderr is every stderr line so far.
func (l *live) stderr() []string { return l.proc.Lines() }

// waitLine waits for a stderr line holding part.
func (l *live) waitLine(part string) string {
	l.t.Helper()
	line, err := l.proc.WaitFor(func(s string) bool { return strings.Contains(s, part) }, runBound)
	switch err {
	case e2eproc.ErrEnded:
		l.t.Fatalf("ohwatch ended (exit %d) without a line holding %q:\n%s", l.proc.Code(), part, strings.Join(l.stderr(), "\n"))
	case e2eproc.ErrTimeout:
		l.t.Fatalf("no line holding %q after %s:\n%s", part, runBound, strings.Join(l.stderr(), "\n"))
	}
	return line
}

// waitLineOrEnd waits for a stderr line holding part, or the end of the
// run.
func (l *live) waitLineOrEnd(part string) {
	l.t.Helper()
	_, err := l.proc.WaitFor(func(s string) bool { return strings.Contains(s, part) }, runBound)
	if err == e2eproc.ErrTimeout {
		l.t.Fatalf("no line holding %q after %s:\n%s", part, runBound, strings.Join(l.stderr(), "\n"))
	}
}

// wait waits for the end of the run: its exit code and stdout.
func (l *live) wait() (int, string) {
	l.t.Helper()
	code, ok := l.proc.Wait(runBound)
	if !ok {
		l.t.Fatalf("ohwatch still running after %s:\n%s", runBound, strings.Join(l.stderr(), "\n"))
	}
	return code, l.out.String()
}

// call sends one request to the app server's /api/v1 and decodes the
// JSON reply into out (when non-nil).
func (a *appServer) call(t *testing.T, method, path string, q url.Values, out any) {
	t.Helper()
	u := a.url + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, body)
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, body)
		}
	}
}

// startConv starts a conversation the way the Cloud UI does (the kit's
// start_cloud_conv.py, sandbox and all) and returns its id and sandbox.
// The sandbox is deleted when the test ends.
func (a *appServer) startConv(t *testing.T, message string, extra ...string) (conv, sandbox string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runBound)
	defer cancel()
	args := append([]string{filepath.Join(kit, "start_cloud_conv.py"), a.url, "--message", message}, extra...)
	a.creating.Lock()
	out, err := exec.CommandContext(ctx, python, args...).CombinedOutput()
	a.creating.Unlock()
	if err != nil {
		t.Fatalf("start_cloud_conv.py: %v\n%s", err, out)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		t.Fatalf("start_cloud_conv.py: %q", out)
	}
	if len(extra) == 0 {
		t.Cleanup(func() { a.deleteSandbox(t, f[1]) })
	}
	return f[0], f[1]
}

// pause pauses a sandbox (SIGSTOP in the process sandbox service).
func (a *appServer) pause(t *testing.T, sandbox string) {
	t.Helper()
	a.call(t, http.MethodPost, "/api/v1/sandboxes/"+sandbox+"/pause", nil, nil)
}

// deleteSandbox deletes a sandbox; one already gone is no failure.
func (a *appServer) deleteSandbox(t *testing.T, sandbox string) {
	req, _ := http.NewRequest(http.MethodDelete, a.url+"/api/v1/sandboxes/"+sandbox+"?sandbox_id="+sandbox, nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

// event is the part of a stored or served event the tests read.
type event struct {
	ID        string          `json:"id"`
	Kind      string          `json:"kind"`
	Key       string          `json:"key"`
	Value     json.RawMessage `json:"value"`
	Timestamp string          `json:"timestamp"`
}

// stored is every event the app server stored for a conversation, read by
// this snapshot's own route, in the server's order.
func (a *appServer) stored(t *testing.T, conv string) []event {
	t.Helper()
	var all []event
	q := url.Values{"conversation_id__eq": {conv}, "limit": {"100"}}
	for {
		var page struct {
			Items      []event `json:"items"`
			NextPageID *string `json:"next_page_id"`
		}
		a.call(t, http.MethodGet, "/api/v1/events/search", q, &page)
		all = append(all, page.Items...)
		if page.NextPageID == nil || *page.NextPageID == "" {
			return all
		}
		q.Set("page_id", *page.NextPageID)
	}
}

// sandboxStatus is the status the app server gives a conversation's
// sandbox.
func (a *appServer) sandboxStatus(t *testing.T, conv string) string {
	t.Helper()
	var batch []*struct {
		SandboxStatus string `json:"sandbox_status"`
	}
	a.call(t, http.MethodGet, "/api/v1/app-conversations", url.Values{"ids": {conv}}, &batch)
	if len(batch) == 0 || batch[0] == nil {
		t.Fatalf("conversation %s not found", conv)
	}
	return batch[0].SandboxStatus
}

// awaitStoredEnd waits until Cloud has stored the end of a finished run:
// the agent-server's closing full_state snapshot, the last event it posts
// (its batch goes after the webhook flush delay). A test needs that
// before it pauses the sandbox, which would stop the post.
func (a *appServer) awaitStoredEnd(t *testing.T, conv string) []event {
	t.Helper()
	deadline := time.Now().Add(runBound)
	for {
		evs := a.stored(t, conv)
		for _, ev := range evs {
			var v struct {
				Status string `json:"execution_status"`
			}
			if ev.Key == "full_state" && json.Unmarshal(ev.Value, &v) == nil && v.Status == "finished" {
				return evs
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Cloud has not stored the end of %s after %s (%d events)", conv, runBound, len(evs))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// jsonLines decodes JSONL output.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var docs []map[string]any
	for line := range strings.Lines(out) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", line, err)
		}
		docs = append(docs, m)
	}
	return docs
}

// hex is a conversation id as ohwatch and the listing write it.
func hex(id string) string { return strings.ReplaceAll(id, "-", "") }

// convOf is the conversation `ohwatch cloud` said it started or attached
// to ("cloud: conversation ID ready").
func convOf(stderr string) string {
	for line := range strings.Lines(stderr) {
		if f := strings.Fields(line); len(f) == 4 && f[0] == "cloud:" && f[1] == "conversation" && f[3] == "ready" {
			return f[2]
		}
	}
	return ""
}

// slots bounds the tests that run conversations at once: each sandbox is
// an agent-server process, and more than a few starting side by side on
// two busy cores take longer than the app server gives them.
var slots = make(chan struct{}, 2)

// parallel marks the test parallel and takes one of the slots for it.
func parallel(t *testing.T) {
	t.Parallel()
	slots <- struct{}{}
	t.Cleanup(func() { <-slots })
}
