package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ohwatch/headless"
	"ohwatch/session"
)

// TestReplayFollowTailsAConversationBeingWritten writes a real recording
// into a directory event by event, as a local agent would, while
// `replay --follow --headless` tails it. The inferred finished is
// provisional until base_state.json (which the SDK rewrites on every
// change) confirms it, as soon as it says so.
func TestReplayFollowTailsAConversationBeingWritten(t *testing.T) {
	src := filepath.Join(twin(t, "simple_echo_hello_world"), "events")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "events"), 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	// The writer goes on as the command shows what it wrote: one event file
	// at a time, each once the one before it is printed, then
	// base_state.json once the inferred finished is printed provisional.
	stdout := newStreamed()
	var errb bytes.Buffer
	done := make(chan int, 1)
	// base_state.json is a local file: it confirms as soon as it says
	// finished, well before the default 10 s grace period meant for a
	// server (the watch timeout would end the run first).
	go func() {
		done <- run([]string{"replay", dir, "--follow", "--headless", "--watch-timeout", "8s"},
			&session.Env{Stdout: stdout, Stderr: &errb, Getenv: func(string) string { return "" }})
	}()
	eventLines := func(s string) int { return strings.Count(s, "\n  .. ") + strings.Count(s, "\n  >> ") }
	for i, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "events", e.Name()), b, 0o644)
		}
		if err == nil {
			err = stdout.waitFor(fmt.Sprintf("line for event %d", i+1), 10*time.Second, func(s string) bool { return eventLines(s) > i })
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := stdout.waitFor("provisional finished", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "(provisional — awaiting full_state confirmation)")
	}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "base_state.json"), []byte(`{"id":"1f6f2ccc-343c-4374-9a75-342cea50f197","execution_status":"finished"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code := <-done
	out, errs := stdout.String(), errb.String()
	if code != headless.ExitFinished {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"(provisional — awaiting full_state confirmation)", ">> execution_status=finished (base_state.json)", "terminal state reached: finished"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n  .. ") + strings.Count(out, "\n  >> "); n < len(entries) {
		t.Errorf("printed %d event lines for %d events:\n%s", n, len(entries), out)
	}
}
