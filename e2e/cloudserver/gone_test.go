package cloudserver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestAppServerGoesAway: the app server dies while `cloud --message`
// watches its conversation. The sandbox's agent-server lives on, so the
// watch ends with the run's outcome; what ohwatch can no longer do (make
// sure Cloud stored the events, delete the sandbox) it says, one line
// each, after a bounded wait.
func TestAppServerGoesAway(t *testing.T) {
	parallel(t)
	doomed := doomed.get(t)
	t.Cleanup(doomed.stop)
	w := doomed.start(t, "cloud", "--message", "STEPS=8", "--headless", "--store-timeout", "2s")
	w.waitLine("cloud: watching conversation")
	pid, err := os.ReadFile(filepath.Join(doomed.dir, "app.pid"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(pid)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(n, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	code, out := w.wait()
	stderr := strings.Join(w.stderr(), "\n")
	if code != 0 || !strings.Contains(out, "finished") {
		t.Fatalf("exit %d, want the run's own outcome (finished, 0):\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"cannot tell whether Cloud stored", "cleanup: cloud: deleting sandbox"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	for _, line := range w.stderr() {
		if strings.HasPrefix(line, "ohwatch cloud:") && len(line) > 400 {
			t.Errorf("an error longer than a line: %s", line)
		}
	}
}
