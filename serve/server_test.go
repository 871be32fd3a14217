package serve

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

func TestStartStopsWithContext(t *testing.T) {
	s := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	base, err := s.Start(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if code := get(t, base+"/alive", "", nil); code != http.StatusOK {
		t.Fatalf("alive: HTTP %d", code)
	}
	cancel()
	waitFor(t, "the listener to close", func() bool {
		resp, err := http.Get(base + "/alive")
		if err == nil {
			resp.Body.Close()
		}
		return err != nil
	})
	if _, err := s.Start(context.Background(), ""); err == nil {
		t.Error("a closed server started again")
	}
	s.Close() // idempotent
}

func TestStartBadAddress(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	if _, err := s.Start(context.Background(), "256.0.0.1:99999"); err == nil {
		t.Fatal("listening on a bad address succeeded")
	}
}

func TestHandlerServedElsewhere(t *testing.T) {
	s := New(Options{})
	evs := basicRun(t)
	s.Add(convID, nil, evs)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: s.Handler()}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { s.Close(); _ = srv.Close() })
	base := "http://" + ln.Addr().String()
	// Handler started the clock.
	waitPlayed(t, s)
	ws := dial(t, base, convID, "", nil)
	if ok, _ := isFullState(ws.next()); !ok {
		t.Fatal("no snapshot")
	}
}

func TestAddAfterStartPlaysAtOnce(t *testing.T) {
	s, base := start(t, Options{}, nil)
	evs := basicRun(t)
	s.Add(convID, nil, evs)
	s.Add(convID, nil, evs[:1]) // ignored: the id is taken
	waitPlayed(t, s)
	// A name that is not a UUID is kept as given, lowercased.
	s.Add("Demo", nil, evs)
	waitFor(t, "the named replay", func() bool { return eventCount(t, base, "demo") == len(evs) })
	var info map[string]any
	get(t, base+"/api/conversations/DEMO", "", &info)
	if info["id"] != "demo" {
		t.Errorf("id = %v", info["id"])
	}
}

func TestRecordedFullStateIsLiveOnly(t *testing.T) {
	r := newRecording(t)
	r.userMessage("hi")
	r.add("ConversationStateUpdateEvent", "environment", `"key":"full_state","value":{"execution_status":"running"}`)
	r.add("StreamingDeltaEvent", "agent", `"content":"he"`)
	last := r.agentMessage("hello")
	_, base := start(t, Options{}, map[string][]model.Event{convID: r.evs})
	waitFor(t, "the replay", func() bool {
		return get(t, eventsURL(base, convID, "/"+last), "", nil) == http.StatusOK
	})
	// The messages, and the per-field status updates the server sends in
	// place of the snapshot; never the snapshot or the delta.
	var p page
	get(t, eventsURL(base, convID, "/search"), "", &p)
	var kinds []string
	for _, raw := range p.Items {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		if u, ok := ev.Body.(*model.StateUpdate); ok && u.FullState {
			t.Errorf("a snapshot was persisted: %s", raw)
		}
		kinds = append(kinds, ev.Kind)
	}
	if slices.Contains(kinds, "StreamingDeltaEvent") || kinds[0] != "MessageEvent" || kinds[len(kinds)-1] != "MessageEvent" {
		t.Errorf("persisted %v; snapshots and deltas are live-only", kinds)
	}
}

// TestCloseEndsAConnectionThatSentNothing: a client transport keeps a
// connection it dialed for a request it then cancelled; Close ends it at
// once rather than leaving Shutdown to wait five seconds for it.
func TestCloseEndsAConnectionThatSentNothing(t *testing.T) {
	s := New(Options{})
	url, err := s.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	waitFor(t, "the connection to be accepted", func() bool {
		s.unused.mu.Lock()
		defer s.unused.mu.Unlock()
		return len(s.unused.conns) == 1
	})
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	conn.SetReadDeadline(time.Now().Add(4 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("the unused connection was not closed: %v", err)
	}
	<-closed
}
