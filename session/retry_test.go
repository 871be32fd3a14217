package session

import (
	"context"
	"net"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// TestRetryableWatchReachesAServerThatCameLater: a watch started before
// its server gives up; the server comes up; retry starts the watch again
// over the same feed, which then delivers the conversation. The feed
// stays open between the two, so the tees on it keep reading.
func TestRetryableWatchReachesAServerThatCameLater(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there until the server starts below
	c, err := agentserver.New("http://"+addr, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := agentserver.WatchOptions{FirstAttempts: 1, BaseBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}
	const id = "c0000000-0000-4000-8000-00000000b001"
	feed, retry := retryableWatch(ctx, c, id, opts)
	next := func(what string, ok func(model.Batch) bool) {
		t.Helper()
		timeout := time.After(30 * time.Second)
		for {
			select {
			case b, open := <-feed:
				if !open {
					t.Fatalf("the feed closed before %s", what)
				}
				if ok(b) {
					return
				}
			case <-timeout:
				t.Fatalf("no %s", what)
			}
		}
	}
	next("giving up", func(b model.Batch) bool { return b.Conn != nil && b.Conn.Phase == model.PhaseLost })
	evs := testevents.Generated(t, 30, 5)
	srv := serve.New(serve.Options{})
	srv.Add(id, nil, evs)
	if _, err := srv.Start(ctx, addr); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !retry() {
		t.Fatal("retry started nothing")
	}
	got := 0
	next("the conversation's events", func(b model.Batch) bool { got += len(b.Events); return got >= len(evs) })
}
