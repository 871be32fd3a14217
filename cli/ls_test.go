package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/serve"
)

// TestListServerCountsSideBySide: piped `ls URL` asks a server for its
// conversations' event counts side by side, not one after another: a
// proxy in front of a real serve holds every count request until three
// are waiting at once, which a serial listing never reaches.
func TestListServerCountsSideBySide(t *testing.T) {
	const convs = 3
	srv := serve.New(serve.Options{Speed: 0})
	for i := range convs {
		srv.Add(fmt.Sprintf("%032x", 0xc0+i), nil, testevents.Generated(t, 10+i, int64(i+1)))
	}
	backend, err := url.Parse(startTestServer(t, srv))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(backend)
	var mu sync.Mutex
	waiting, all := 0, make(chan struct{})
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/events/count") {
			mu.Lock()
			if waiting++; waiting == convs {
				close(all)
			}
			mu.Unlock()
			select {
			case <-all:
			case <-time.After(20 * time.Second): // a failure bound, not a pace
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()

	start := time.Now()
	code, out, errs := runCmd(t, nil, "ls", front.URL)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	select {
	case <-all:
	default:
		t.Fatalf("the counts were asked one after another (%s):\n%s", time.Since(start), out)
	}
	for i := range convs {
		id := fmt.Sprintf("%032x", 0xc0+i)
		if !strings.Contains(out, id) {
			t.Errorf("ls lacks %s:\n%s", id, out)
		}
	}
	if head := strings.Fields(strings.SplitN(out, "\n", 2)[0]); strings.Join(head, " ") != "ID STATUS EVENTS COST LAST TITLE" {
		t.Errorf("heading %q", head)
	}
}

// TestListTextKeepsWholeTitles: piped `ls` is the fleet rows' text form:
// a long title is printed whole (a pipe has no width to cut it to).
func TestListTextKeepsWholeTitles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "0123456789abcdef0123456789abcdef")
	if code, _, errs := runCmd(t, nil, "gen", dir, "--events", "20"); code != 0 {
		t.Fatal(errs)
	}
	title := strings.Repeat("a long title ", 10) + "ends here"
	if err := writeMeta(dir, title); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, nil, "ls", root)
	if code != 0 || !strings.Contains(out, title) {
		t.Fatalf("exit %d, the title is not whole:\n%s%s", code, out, errs)
	}
}

// writeMeta gives the conversation in dir a meta.json with title, as the
// agent-server writes one.
func writeMeta(dir, title string) error {
	raw, err := json.Marshal(map[string]string{"title": title})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "meta.json"), raw, 0o644)
}

// TestListOneConversation: `ls DIR` on a conversation directory (not a
// root of them) lists that one conversation, not "no conversations".
func TestListOneConversation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0123456789abcdef0123456789abcdef")
	if code, _, errs := runCmd(t, nil, "gen", dir, "--events", "20"); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runCmd(t, nil, "ls", dir)
	if code != 0 || strings.Contains(out, "no conversations") || strings.Count(out, "\n") != 2 {
		t.Fatalf("ls DIR: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCmd(t, nil, "ls", dir, "--json")
	var docs []listing
	if err := json.Unmarshal([]byte(out), &docs); code != 0 || err != nil || len(docs) != 1 || docs[0].Events != 20 || docs[0].Path != dir {
		t.Fatalf("ls DIR --json: exit %d, %v\n%s", code, err, out)
	}
}
