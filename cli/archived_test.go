package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"ohwatch/headless"
	"ohwatch/serve"
)

// Issue 38 item 6: archived conversations (upstream issue #4994:
// archived_at; search and count list the active conversations unless
// archive_filter is ARCHIVED or ALL; docker_runtime/routers.py at commit
// 0140f789 refuses an archived conversation's runtime, 409, and its socket,
// 1011), as serve's archive fault plays them.

// serveArchive serves two finished conversations, the first archived, and
// returns the URL and the ids (archived, active).
func serveArchive(t *testing.T, faults serve.Faults) (string, string, string) {
	t.Helper()
	srv := serve.New(serve.Options{Speed: 0, FinishConfirmDelay: 1})
	var ids []string
	for i := range 2 {
		evs, err := generatedEnding(20+i, int64(300+i), "finished")
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("%032x", 0xa2c0+i)
		srv.Add(id, nil, evs)
		ids = append(ids, id)
	}
	faults.Archives, faults.Archived = true, []string{ids[0]}
	srv.SetFaults(faults)
	url := startTestServer(t, srv)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for _, id := range ids {
		if err := srv.WaitStatus(ctx, id, "finished"); err != nil {
			t.Fatal(err)
		}
	}
	return url, ids[0], ids[1]
}

func TestLsSaysHowManyAreArchived(t *testing.T) {
	t.Parallel()
	url, archived, active := serveArchive(t, serve.Faults{})
	code, out, errs := runCmd(t, nil, "ls", url)
	if code != 0 || !strings.Contains(out, active) || strings.Contains(out, archived) {
		t.Fatalf("exit %d: want the active conversation alone:\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "1 conversation archived, not listed (--archived lists them)") {
		t.Errorf("stderr does not count the archived one:\n%s", errs)
	}
	code, out, errs = runCmd(t, nil, "ls", url, "--archived")
	if code != 0 || !strings.Contains(out, active) || !strings.Contains(out, archived) {
		t.Fatalf("--archived: exit %d: want both:\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "1 conversation archived, listed") {
		t.Errorf("--archived: stderr %q", errs)
	}
}

func TestFleetSaysHowManyAreArchived(t *testing.T) {
	t.Parallel()
	url, archived, active := serveArchive(t, serve.Faults{})
	code, out, errs := runCmd(t, nil, "fleet", url, "--headless", "--until", "all", "--interval", "50ms")
	if code != 0 || !strings.Contains(out, active) || strings.Contains(out, archived) {
		t.Fatalf("exit %d: want the active conversation alone:\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "1 conversation archived, not listed (--archived lists them)") {
		t.Errorf("stderr does not count the archived one:\n%s", errs)
	}
	code, out, errs = runCmd(t, nil, "fleet", url, "--headless", "--until", "all", "--interval", "50ms", "--archived")
	if code != 0 || !strings.Contains(out, active) || !strings.Contains(out, archived) {
		t.Fatalf("--archived: exit %d: want both:\n%s\n%s", code, out, errs)
	}
}

// TestWatchSaysTheConversationIsArchived: watching an archived
// conversation says so; on a Docker runtime, whose socket closes with 1011
// for it, the watch ends at once with that reason, exit 4.
func TestWatchSaysTheConversationIsArchived(t *testing.T) {
	t.Parallel()
	url, archived, _ := serveArchive(t, serve.Faults{})
	code, out, errs := runCmd(t, nil, "watch", url, "--conversation", archived, "--headless")
	if code != headless.ExitFinished || !strings.Contains(out, "-- archived") {
		t.Fatalf("exit %d, want 0 and a line saying it is archived:\n%s\n%s", code, out, errs)
	}
	url, archived, _ = serveArchive(t, serve.Faults{Docker: true})
	code, out, errs = runCmd(t, nil, "watch", url, "--conversation", archived, "--headless")
	if code != headless.ExitUnreachable || !strings.Contains(out+errs, "close 1011") || !strings.Contains(out+errs, "the conversation is archived") {
		t.Fatalf("exit %d, want 4 saying the archived conversation's socket was closed:\n%s\n%s", code, out, errs)
	}
	if strings.Contains(out, "reconnecting") {
		t.Errorf("retried an archived conversation's 1011:\n%s", out)
	}
}
