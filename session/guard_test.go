package session

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/guard"
	"ohwatch/headless"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
)

// guardConv is the conversation the guard tests serve.
const guardConv = "5e0c1a2b3c4d4e5f8a9b0c1d2e3f4a5b"

// servePaced serves a generated conversation at a pace a pause lands
// within (twenty times the recorded one) and returns its URL.
func servePaced(t *testing.T, faults serve.Faults) (*serve.Server, string, []model.Event) {
	t.Helper()
	evs := testevents.Generated(t, 300, 3)
	srv := serve.New(serve.Options{Speed: 20, Inject: faults})
	srv.Add(guardConv, nil, evs)
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, url, evs
}

// guardLines are the "guard" JSON lines of a headless run's output.
func guardLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["type"] == "guard" {
			lines = append(lines, m)
		}
	}
	return lines
}

// TestGuardPauseReachesTheServerQuickly measures, under serve, the time
// from the tripping event reaching ohwatch to the pause request reaching
// the server. It reports the figure; the bound only catches a hang.
func TestGuardPauseReachesTheServerQuickly(t *testing.T) {
	t.Parallel()
	evs := testevents.Generated(t, 300, 3)
	srv := serve.New(serve.Options{Speed: 20})
	srv.Add(guardConv, nil, evs)
	var mu sync.Mutex
	var pauseAt time.Time
	h := srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/pause") {
			mu.Lock()
			pauseAt = time.Now()
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(ts.Close)
	c, err := agentserver.New(ts.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	arrived := map[string]time.Time{}
	feed := make(chan model.Batch)
	go func() {
		defer close(feed)
		for b := range c.Watch(ctx, guardConv, agentserver.WatchOptions{}) {
			now := time.Now()
			mu.Lock()
			for _, ev := range b.Events {
				arrived[ev.ID] = now
			}
			mu.Unlock()
			select {
			case feed <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	rules, _ := guard.ParseAll([]string{"steps>20:pause"})
	var out strings.Builder
	r := headless.Run(ctx, reducer.NewLog(nil, 0), feed, headless.Options{Out: &out, JSON: true, Guards: guard.New(rules),
		Act: guardAct(confirmer{c: c, id: guardConv})})
	if r.Exit != headless.ExitGuard {
		t.Fatalf("exit %d\n%s", r.Exit, out.String())
	}
	lines := guardLines(t, out.String())
	mu.Lock()
	defer mu.Unlock()
	at, ok := arrived[lines[0]["event_id"].(string)]
	if !ok || pauseAt.IsZero() {
		t.Fatalf("no arrival (%v) or no pause (%v)", ok, pauseAt)
	}
	d := pauseAt.Sub(at)
	t.Logf("tripping event received → pause request at the server: %s", d)
	if d > 10*time.Second {
		t.Errorf("the pause took %s", d)
	}
}
