package agentserver

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log sink safe for the watch's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSessionKeyNeverLeaks drives every path that logs, fails or builds a
// URL — history, live, reconnects, a REST error echoing the key, a socket
// auth failure — and searches every log line, error, connection reason and
// URL the server saw for the key.
func TestSessionKeyNeverLeaks(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c"
	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f := newFakeServer(t, key)
	f.persist(120)
	c := f.client(t, WithLogger(logger))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var texts []string
	opts := fastWatch()
	opts.CheckInterval = 5 * time.Millisecond
	col := collect(c.Watch(ctx, f.id, opts))
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() == 1 })
	f.emit(3)
	f.dropAll()
	col.waitFor(t, "reconnect", func(c *collector) bool { return c.lives() == 2 })
	cancel()
	<-col.done

	// REST errors, including a server that echoes the key in its body.
	_, err := c.Conversation(context.Background(), "missing")
	texts = append(texts, err.Error())
	bad, _ := New(f.srv.URL, key+"-wrong", WithLogger(logger))
	if _, err := bad.Events(context.Background(), f.id); err != nil {
		texts = append(texts, err.Error())
	}
	// A socket that refuses the key (close 4001).
	f.socketKey = "another"
	col = collect(c.Watch(context.Background(), f.id, fastWatch()))
	<-col.done
	for _, cs := range col.conns {
		texts = append(texts, cs.Reason)
	}
	var he *HTTPError
	if !errors.As(err, &he) {
		t.Fatalf("no HTTP error to inspect: %v", err)
	}

	texts = append(texts, logs.String())
	f.mu.Lock()
	texts = append(texts, f.urls...)
	texts = append(texts, f.sockets...)
	f.mu.Unlock()
	if !strings.Contains(logs.String(), "agent-server request") {
		t.Fatal("the logger captured nothing: the test would prove nothing")
	}
	for _, s := range texts {
		if strings.Contains(s, key) {
			t.Errorf("the session key leaked into: %q", s)
		}
	}
	// The key did travel where it must: headers and the auth frame.
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, u := range f.urls {
		if strings.HasPrefix(u, "/api/") && f.headers[i].Get(sessionHeader) == "" {
			t.Errorf("REST request %s carries no session header", u)
		}
	}
}
