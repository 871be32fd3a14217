package session

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ohwatch/client/fleetsource"
	"ohwatch/fleet"
	"ohwatch/gen"
	"ohwatch/internal/redact"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// TestFleetOpensAConversation opens a conversation of each kind of source
// as enter does in the table: a server's live, with its controls (as
// `ohwatch watch` shows it); a local one at rest as `ohwatch replay` shows
// it, read whole with its progress.
func TestFleetOpensAConversation(t *testing.T) {
	url, id := serveGenerated(t, 40, 500)
	root := t.TempDir()
	dir := filepath.Join(root, "conv-0")
	if err := gen.WriteDir(dir, gen.Options{Events: 25, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "events"), old, old)
	env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	fl, err := BuildFleet(env, []string{url, root}, FleetOptions{Interval: 50 * time.Millisecond}, new(redact.Secrets), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	feed := fleetsource.Watch(ctx, fl.sources, fleetsource.Options{})
	f := fleet.New()
	for f.Len() < 2 {
		f.Apply(<-feed)
	}
	go func() {
		for range feed {
		}
	}()

	s, err := fl.open(ctx, model.ConversationRef{Source: url, Kind: model.SourceServer, ID: id})
	if err != nil || !s.live || s.controls == nil || s.server != url {
		t.Fatalf("server conversation: live %v, controls %v, server %q, %v", s.live, s.controls, s.server, err)
	}
	// Its 40 recorded events come whole (beside the snapshot the server
	// sends as the socket subscribes), as history or live: the fleet may
	// have listed it before its replay began.
	live, n := false, 0
	countUntil(t, s.feed, func(b model.Batch) bool {
		live = live || b.Conn != nil && b.Conn.Phase == model.PhaseLive
		n += len(b.Events)
		return live && n >= 40
	})
	if n < 40 {
		t.Errorf("the server conversation opened with %d events, want its 40", n)
	}

	var local conversation
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if local, err = fl.open(ctx, model.ConversationRef{Source: root, Kind: model.SourceLocal, ID: "conv-0"}); err == nil {
			break
		}
	}
	if err != nil || !local.recording || local.live {
		t.Fatalf("local conversation: recording %v, live %v, %v", local.recording, local.live, err)
	}
	if n := countUntil(t, local.feed, nil); n != 25 {
		t.Errorf("the local conversation opened with %d events, want 25", n)
	}
}

// countUntil counts the events of feed until stop says so (nil: until the
// feed closes).
func countUntil(t *testing.T, feed <-chan model.Batch, stop func(model.Batch) bool) int {
	t.Helper()
	n := 0
	timeout := time.After(10 * time.Second)
	for {
		select {
		case b, ok := <-feed:
			if !ok {
				return n
			}
			n += len(b.Events)
			if stop != nil && stop(b) {
				return n
			}
		case <-timeout:
			t.Fatalf("the feed did not end (%d events)", n)
		}
	}
}

// serveGenerated serves a generated conversation of n events (a finished
// one) on loopback; the server stops with the test.
func serveGenerated(t *testing.T, n int, seed int64) (url, id string) {
	t.Helper()
	id = fmt.Sprintf("%032x", seed)
	srv := serve.New(serve.Options{Speed: 0})
	srv.Add(id, nil, testevents.Generated(t, n, seed))
	ctx, cancel := context.WithCancel(context.Background())
	url, err := srv.Start(ctx, "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); cancel() })
	return url, id
}
