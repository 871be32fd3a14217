package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFleetUntilAllEnds: --until all over an empty root ends at once
// (nothing to wait for, exit 5), and over a server whose listing always
// fails it ends at --watch-timeout (exit 5).
func TestFleetUntilAllEnds(t *testing.T) {
	code, stdout, stderr := runCmd(t, nil, "fleet", t.TempDir(), "--headless", "--until", "all")
	if code != 5 || !strings.Contains(stdout, "every source listed no conversation: nothing to wait for") {
		t.Fatalf("empty root: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	defer failing.Close()
	code, stdout, stderr = runCmd(t, nil, "fleet", failing.URL, "--headless", "--until", "all", "--watch-timeout", "1s", "--interval", "100ms")
	if code != 5 || !strings.Contains(stdout, "no end within --watch-timeout 1s") || !strings.Contains(stderr, "down for maintenance") {
		t.Fatalf("failing listing: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := runCmd(t, nil, "fleet", t.TempDir(), "--headless", "--max-streams", "0"); code != 2 || !strings.Contains(stderr, "--max-streams must be at least 1") {
		t.Fatalf("--max-streams 0: exit %d, %q", code, stderr)
	}
}
