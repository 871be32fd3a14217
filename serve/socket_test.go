package serve

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ohwatch/model"
)

func TestSocketAuthForms(t *testing.T) {
	evs := basicRun(t)
	s, base := start(t, Options{Key: testKey, AuthTimeout: 200 * time.Millisecond}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)

	t.Run("first frame", func(t *testing.T) {
		ws := dial(t, base, convID, "", nil)
		ws.auth(testKey)
		if ok, _ := isFullState(ws.next()); !ok {
			t.Fatal("no snapshot after first-frame auth")
		}
	})
	t.Run("header", func(t *testing.T) {
		ws := dial(t, base, convID, "", http.Header{"X-Session-Api-Key": {testKey}})
		if ok, _ := isFullState(ws.next()); !ok {
			t.Fatal("no snapshot after header auth")
		}
	})
	t.Run("query", func(t *testing.T) {
		ws := dial(t, base, convID, "session_api_key="+url.QueryEscape(testKey), nil)
		if ok, _ := isFullState(ws.next()); !ok {
			t.Fatal("no snapshot after query auth")
		}
	})
	t.Run("extra auth frame ignored", func(t *testing.T) {
		ws := dial(t, base, convID, "", http.Header{"X-Session-Api-Key": {testKey}})
		ws.next()
		ws.auth("whatever")
		ws.sendText(`{"role":"assistant","content":[]}`)
		// The auth frame gets no answer; the invalid message does.
		ev := ws.next()
		if ev.Kind != "ServerErrorEvent" {
			t.Fatalf("got %s, want the ServerErrorEvent of the second frame", ev.Kind)
		}
	})
	for name, query := range map[string]string{"bad header": "", "bad query": "session_api_key=nope"} {
		t.Run(name, func(t *testing.T) {
			var h http.Header
			if query == "" {
				h = http.Header{"X-Session-Api-Key": {"nope"}}
			}
			_, resp, err := dialRaw(base, convID, query, h)
			if err == nil {
				t.Fatal("handshake with a bad key succeeded")
			}
			if resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("refused with %v, want HTTP 403 before accept", resp)
			}
		})
	}
	bad := map[string]string{
		"wrong key":   `{"type":"auth","session_api_key":"nope"}`,
		"wrong type":  `{"type":"hello","session_api_key":"` + testKey + `"}`,
		"non-object":  `["auth"]`,
		"malformed":   `{"type":"auth",`,
		"plain text":  `hello`,
		"missing key": `{"type":"auth"}`,
	}
	for name, frame := range bad {
		t.Run(name, func(t *testing.T) {
			ws := dial(t, base, convID, "", nil)
			ws.sendText(frame)
			if code := ws.closeCode(); code != closeAuthFailed {
				t.Fatalf("close code %d, want 4001", code)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		ws := dial(t, base, convID, "", nil)
		if code := ws.closeCode(); code != closeAuthFailed {
			t.Fatalf("close code %d, want 4001", code)
		}
	})
}

func TestSocketWithoutAuthConfigured(t *testing.T) {
	s, base := start(t, Options{}, map[string][]model.Event{convID: basicRun(t)})
	waitPlayed(t, s)
	ws := dial(t, base, convID, "", nil)
	if ok, _ := isFullState(ws.next()); !ok {
		t.Fatal("no snapshot without auth")
	}
	ws.auth("anything") // ignored
	ws.sendText(`{"role":"user","content":"not a list"}`)
	if ev := ws.next(); ev.Kind != "ServerErrorEvent" {
		t.Fatalf("got %s after an invalid frame", ev.Kind)
	}
}

func TestSocketUnknownConversation(t *testing.T) {
	_, base := start(t, Options{Key: testKey}, nil)
	ws := dial(t, base, "ffffffff-0000-4000-8000-000000000000", "", nil)
	ws.auth(testKey)
	if code := ws.closeCode(); code != closeNotFound {
		t.Fatalf("close code %d, want 4004", code)
	}
}

func TestSocketTooManySubscribers(t *testing.T) {
	_, base := start(t, Options{}, map[string][]model.Event{convID: basicRun(t)})
	for range MaxSubscribers {
		ws := dial(t, base, convID, "", nil)
		ws.next()
	}
	ws := dial(t, base, convID, "", nil)
	if code := ws.closeCode(); code != closeTryAgainLater {
		t.Fatalf("close code %d, want 1013", code)
	}
}

func TestSocketResendModes(t *testing.T) {
	evs := basicRun(t)
	s, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)

	check := func(t *testing.T, query string, want []model.Event) {
		t.Helper()
		ws := dial(t, base, convID, query, http.Header{"X-Session-Api-Key": {testKey}})
		if ok, status := isFullState(ws.next()); !ok || status != "finished" {
			t.Fatalf("first frame: full_state %v status %q", ok, status)
		}
		for i, w := range want {
			data, err := ws.readRaw(5 * time.Second)
			if err != nil || !rawEqual(data, w.Raw) {
				t.Fatalf("frame %d: %v\n got %s\nwant %s", i+1, err, data, w.Raw)
			}
		}
		// Nothing more: the replay is over and no history was left out.
		if data, err := ws.readRaw(100 * time.Millisecond); err == nil {
			t.Fatalf("unexpected frame %s", data)
		}
	}
	t.Run("none", func(t *testing.T) { check(t, "", nil) })
	t.Run("all", func(t *testing.T) { check(t, "resend_mode=all", evs) })
	t.Run("resend_all", func(t *testing.T) { check(t, "resend_all=true", evs) })
	t.Run("since includes the boundary", func(t *testing.T) {
		ts := formatTimestamp(evs[4].Time)
		check(t, "resend_mode=since&after_timestamp="+url.QueryEscape(ts), evs[4:])
	})
	t.Run("since aware timestamp", func(t *testing.T) {
		check(t, "resend_mode=since&after_timestamp="+url.QueryEscape("2026-01-28T15:00:05+01:00"), evs[5:])
	})
	t.Run("since without timestamp", func(t *testing.T) { check(t, "resend_mode=since", nil) })
}

func TestSocketIdleBeforeStart(t *testing.T) {
	evs := basicRun(t)
	_, base := start(t, Options{StartPaused: true}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "resend_mode=all", nil)
	first := ws.next()
	if statusOf(first) != "idle" {
		t.Fatalf("first frame %s, want execution_status=idle", first.Raw)
	}
	if code := post(t, base+"/api/conversations/"+convID+"/run", "", "", nil); code != http.StatusOK {
		t.Fatalf("run: HTTP %d", code)
	}
	got := ws.nextN(len(evs))
	for i := range evs {
		if got[i].ID != evs[i].ID {
			t.Fatalf("live event %d is %s, want %s", i, got[i].ID, evs[i].ID)
		}
	}
}

func TestSocketClientMessage(t *testing.T) {
	evs := basicRun(t)
	s, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	ws := dial(t, base, convID, "", nil)
	ws.auth(testKey)
	ws.next()
	other := dial(t, base, convID, "", http.Header{"X-Session-Api-Key": {testKey}})
	other.next()

	ws.sendText(`{"role":"user","content":[{"type":"text","text":"continue"}]}`)
	for _, c := range []*wsClient{ws, other} {
		ev := c.next()
		if ev.Kind != "MessageEvent" || ev.Source != "user" {
			t.Fatalf("got %s from %s, want the user MessageEvent", ev.Raw, ev.Source)
		}
	}
	if n := eventCount(t, base, convID); n != len(evs)+1 {
		t.Errorf("REST has %d events, want the appended message too", n)
	}
	for _, frame := range []string{`{"role":"user"}`, `42`, `{"role":"user","content":[{"type":"video"}]}`} {
		ws.sendText(frame)
		if ev := ws.next(); ev.Kind != "ServerErrorEvent" {
			t.Fatalf("%s: got %s", frame, ev.Raw)
		}
	}
	// The socket stays open after errors.
	ws.sendText(`{"role":"user","content":[{"type":"text","text":"again"}]}`)
	if ev := ws.next(); ev.Kind != "MessageEvent" {
		t.Fatalf("socket unusable after an error: %s", ev.Raw)
	}
}

func TestCloseSendsGoingAway(t *testing.T) {
	s, base := start(t, Options{}, map[string][]model.Event{convID: basicRun(t)})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	go s.Close()
	if code := ws.closeCode(); code != websocket.StatusGoingAway {
		t.Fatalf("close code %d, want 1001", code)
	}
}

func TestSocketBadAfterTimestamp(t *testing.T) {
	_, base := start(t, Options{}, map[string][]model.Event{convID: basicRun(t)})
	_, resp, err := dialRaw(base, convID, "resend_mode=since&after_timestamp=yesterday", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad after_timestamp: %v %v", err, resp)
	}
}
