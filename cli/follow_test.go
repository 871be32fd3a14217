package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ohwatch/headless"
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
	go func() {
		for _, e := range entries {
			time.Sleep(30 * time.Millisecond)
			b, _ := os.ReadFile(filepath.Join(src, e.Name()))
			os.WriteFile(filepath.Join(dir, "events", e.Name()), b, 0o644)
		}
		time.Sleep(100 * time.Millisecond)
		os.WriteFile(filepath.Join(dir, "base_state.json"), []byte(`{"id":"1f6f2ccc-343c-4374-9a75-342cea50f197","execution_status":"finished"}`), 0o644)
	}()
	// base_state.json is a local file: it confirms as soon as it says
	// finished, well before the default 10 s grace period meant for a
	// server (the watch timeout would end the run first).
	code, out, errs := runCmd(t, nil, "replay", dir, "--follow", "--headless", "--watch-timeout", "8s")
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
