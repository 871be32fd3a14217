package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"ohwatch/client/cloud"
	"ohwatch/internal/redact"
	"ohwatch/model"
	"ohwatch/serve"
)

// feedEvents counts the events a side's feed delivers until it closes or
// want have come, within a generous bound.
func feedEvents(t *testing.T, feed <-chan model.Batch, want int) int {
	t.Helper()
	bound := time.After(30 * time.Second)
	n := 0
	for n < want {
		select {
		case b, ok := <-feed:
			if !ok {
				return n
			}
			n += len(b.Events)
		case <-bound:
			t.Fatalf("%d of %d events after 30 s", n, want)
		}
	}
	return n
}

// A Cloud side of the compare screen: a paused conversation streams in
// from Cloud's stored events, ended, its sandbox not resumed; a running
// one is watched live on its sandbox's agent-server (a real serve), whose
// session key becomes a secret.
func TestOpenCloudSide(t *testing.T) {
	base, events := demoConversation(t)
	srv := serve.New(serve.Options{Key: pausedAgentKey, Speed: 0, FinishConfirmDelay: 1})
	srv.Add(pausedConvID, base, events)
	agentURL := startTestServer(t, srv)
	c := newPausedCloud(t, agentURL, events)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	secrets := new(redact.Secrets)
	keys := CompareKeys{Cloud: cloud.Config{APIKey: pausedAPIKey, BaseURL: c.srv.URL}, Secrets: secrets}
	run := CompareRun{Cloud: true, ID: pausedConvID}

	side, err := openCloudSide(ctx, run, keys)
	if err != nil {
		t.Fatal(err)
	}
	if side.Live || !side.Ended || !strings.Contains(side.Title, "stored events") || side.Source != "cloud:"+pausedConvID {
		t.Fatalf("paused side: live %v, ended %v, title %q, source %q", side.Live, side.Ended, side.Title, side.Source)
	}
	if n := feedEvents(t, side.Feed, len(events)+1); n != len(events) {
		t.Fatalf("paused side: %d events, want %d", n, len(events))
	}
	for _, r := range c.sent() {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("the paused side sent %s", r)
		}
	}

	c.mu.Lock()
	c.running = true
	c.mu.Unlock()
	side, err = openCloudSide(ctx, run, keys)
	if err != nil {
		t.Fatal(err)
	}
	if !side.Live || side.Ended || side.Title != "Tidy the release notes" {
		t.Fatalf("running side: live %v, ended %v, title %q", side.Live, side.Ended, side.Title)
	}
	if n := feedEvents(t, side.Feed, len(events)); n < len(events) {
		t.Fatalf("running side: %d events, want %d", n, len(events))
	}
	if got := secrets.Redact("key " + pausedAgentKey); strings.Contains(got, pausedAgentKey) {
		t.Errorf("the sandbox's session key is not a secret")
	}
}
