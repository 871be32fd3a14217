package agentserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/internal/redact"
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

// TestEchoedKeyNeverReachesAnEvent: an agent that prints its environment
// echoes the session key into its observations, as is, base64-encoded and
// in hex; over REST history and over the socket, the events handed out
// hold none of it (their raw bytes go on to the screen, a search and a
// recording), and they still decode as what they were.
func TestEchoedKeyNeverReachesAnEvent(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c"
	forms := []string{key, base64.StdEncoding.EncodeToString([]byte("Bearer " + key)), hex.EncodeToString([]byte(key))}
	echo := func(f *fakeServer) []byte {
		text := "SESSION_API_KEY=" + forms[0] + `\nAUTH=` + forms[1] + `\nHEX=` + forms[2]
		return f.eventLocked("ObservationEvent", `"tool_name":"terminal","tool_call_id":"c1","action_id":"a1",`+
			`"observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"`+text+`"}],"exit_code":0}`)
	}
	f := newFakeServer(t, key)
	f.mu.Lock()
	f.persistLocked(echo(f))
	f.mu.Unlock()
	w := f.watchLive(t, fastWatch())
	f.mu.Lock()
	raw := echo(f)
	f.persistLocked(raw)
	for _, ch := range f.subs {
		ch <- raw
	}
	f.mu.Unlock()
	w.waitCount(t, "the echo over the socket", 2)
	w.stop()
	observations := 0
	for _, ev := range w.events {
		if ev.Kind == "ObservationEvent" {
			observations++
		}
		for _, form := range forms {
			if strings.Contains(string(ev.Raw), form[:16]) || strings.Contains(ev.Summary, form[:16]) {
				t.Fatalf("the key (%s…) reached an event: %s", form[:8], ev.Raw)
			}
		}
	}
	if observations != 2 {
		t.Errorf("%d of the 2 echoing observations decoded as observations", observations)
	}

	// A listing's title and a conversation's fields echo it too.
	c := f.client(t)
	info, err := c.decodeConversation([]byte(`{"id":"a1b2c3d4e5f60718293a4b5c6d7e8f90","title":"deploy with ` + key + `","execution_status":"idle"}`))
	if err != nil || strings.Contains(info.Title, key[:16]) || !strings.Contains(info.Title, redact.Redacted) {
		t.Fatalf("title %q (%v)", info.Title, err)
	}
}
