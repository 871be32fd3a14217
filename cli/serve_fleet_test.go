package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeFleetFlags reads --stagger and --loop into the server's options.
func TestServeFleetFlags(t *testing.T) {
	rec := twin(t, "simple_echo_hello_world")
	cases := []struct {
		args    []string
		stagger time.Duration
		loop    bool
	}{
		{nil, 0, false},
		{[]string{"--stagger", "10s"}, 10 * time.Second, false},
		{[]string{"--loop"}, 0, true},
		{[]string{"--stagger=1m30s", "--loop", "--speed", "5"}, 90 * time.Second, true},
	}
	for _, c := range cases {
		cfg, code, ok := parseServe(append([]string{rec}, c.args...), io.Discard)
		if !ok {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		o := cfg.options("", nil)
		if o.Stagger != c.stagger || o.Loop != c.loop {
			t.Errorf("%v: stagger %s loop %v, want %s %v", c.args, o.Stagger, o.Loop, c.stagger, c.loop)
		}
	}
}

// TestServeBadStaggerIsAUsageError: a duration that does not parse or is
// negative, and --loop without a pace, end with one line naming the
// mistake and a hint, exit 2, nothing on stdout.
func TestServeBadStaggerIsAUsageError(t *testing.T) {
	rec := twin(t, "simple_echo_hello_world")
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"--stagger", "soon"}, "--stagger"},
		{[]string{"--stagger", "10"}, "--stagger"}, // no unit
		{[]string{"--stagger", "-5s"}, "--stagger"},
		{[]string{"--stagger"}, "--stagger"},
		{[]string{"--loop", "--speed", "0"}, "--loop"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, nil, append([]string{"serve", rec}, c.args...)...)
			if code != exitUsage || out != "" {
				t.Fatalf("exit %d, stdout %q", code, out)
			}
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if len(lines) != 2 || !strings.Contains(lines[0], c.flag) || !strings.HasPrefix(strings.TrimSpace(lines[1]), "hint:") {
				t.Fatalf("not one line naming %s and a hint:\n%s", c.flag, errs)
			}
		})
	}
}

// TestServeStaggersARoot serves a root of recordings an
// hour apart: the startup lines say when each starts, and only the first
// is listed and found until then.
func TestServeStaggersARoot(t *testing.T) {
	root := shapesRoot(t)
	cfg, code, ok := parseServe([]string{root, "--addr", "127.0.0.1:0", "--stagger", "1h", "--loop"}, io.Discard)
	if !ok {
		t.Fatalf("exit %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, ids, lines, done := startServeCmd(t, ctx, cfg)
	if len(ids) < 2 {
		t.Fatalf("a root of %d conversations: %q", len(ids), lines)
	}
	out := strings.Join(lines, "\n")
	if !strings.Contains(out, "--loop") || !strings.Contains(lines[len(lines)-1], "starts in") || strings.Contains(lines[len(lines)-len(ids)], "starts in") {
		t.Fatalf("startup lines do not say when each starts or that runs loop:\n%s", out)
	}
	var n int
	if code := getJSON(t, url+"/api/conversations/count", &n); code != http.StatusOK || n != 1 {
		t.Fatalf("count: HTTP %d, %d listed, want the first only", code, n)
	}
	if code := getJSON(t, url+"/api/conversations/"+ids[0], nil); code != http.StatusOK {
		t.Fatalf("the first: HTTP %d", code)
	}
	if code := getJSON(t, url+"/api/conversations/"+ids[1], nil); code != http.StatusNotFound {
		t.Fatalf("the second before its start: HTTP %d, want 404", code)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop with its context")
	}
}

// getJSON GETs url and decodes a 200 answer into v (when not nil); it
// returns the status.
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}
