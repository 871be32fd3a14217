package cli

import (
	"fmt"
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

// TestFleetMaxListedCutsTheListing: --max-listed reaches the server
// source. A server whose listing never ends (finished conversations, two a
// page) is cut at the cap, stderr says so in one line naming the cap, and
// --until all ends on the conversations taken.
func TestFleetMaxListedCutsTheListing(t *testing.T) {
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/conversations/search" {
			http.NotFound(w, r)
			return
		}
		start := 0
		fmt.Sscan(r.URL.Query().Get("page_id"), &start)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"items":[{"id":"%032x","execution_status":"finished"},{"id":"%032x","execution_status":"finished"}],"next_page_id":"%d"}`,
			start+1, start+2, start+2)
	}))
	defer endless.Close()
	code, stdout, stderr := runCmd(t, nil, "fleet", endless.URL, "--headless", "--until", "all", "--max-listed", "3", "--interval", "1h", "--watch-timeout", "1m")
	if code != 0 || !strings.Contains(stderr, "listing cut at") || !strings.Contains(stderr, "(the cap is 3)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
