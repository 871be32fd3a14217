package agentserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

const (
	treeConv = "0c8a3d0e-5f1b-4a7e-9d3c-2b1a0f9e8d7c"
	forkConv = "a1b2c3d4-0000-4000-8000-000000000001"
	treeKey  = "sk-tree-9d3c2b1a0f9e8d7c5f1b"
)

// treeServer is an httptest agent-server for the tree routes: it records
// each request, answers GET of treeConv (when exists) and lets handle
// answer the rest.
type treeServer struct {
	mu       sync.Mutex
	requests []treeRequest
	exists   bool
	handle   func(w http.ResponseWriter, r *http.Request, body []byte)
}

type treeRequest struct {
	method, path, key string
	body              map[string]any
}

func newTreeServer(t *testing.T, exists bool, handle func(http.ResponseWriter, *http.Request, []byte)) (*treeServer, *Client) {
	t.Helper()
	ts := &treeServer{exists: exists, handle: handle}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m map[string]any
		_ = json.Unmarshal(body, &m)
		ts.mu.Lock()
		ts.requests = append(ts.requests, treeRequest{r.Method, r.URL.Path, r.Header.Get(sessionHeader), m})
		ts.mu.Unlock()
		if r.Method == http.MethodGet && r.URL.Path == "/api/conversations/"+treeConv {
			if !ts.exists {
				http.Error(w, `{"detail":"Not Found"}`, http.StatusNotFound)
				return
			}
			_, _ = w.Write([]byte(`{"id":"` + treeConv + `","execution_status":"finished"}`))
			return
		}
		handle(w, r, body)
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, treeKey)
	if err != nil {
		t.Fatal(err)
	}
	return ts, c
}

func (ts *treeServer) first() treeRequest {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.requests[0]
}

func TestForkRequest(t *testing.T) {
	ts, c := newTreeServer(t, true, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id":"` + forkConv + `","execution_status":"idle","forked_from_conversation_id":"` + treeConv + `","forked_from_event_id":"ev-7","leaf_event_id":"ev-7"}`))
	})
	id, err := c.Fork(context.Background(), treeConv, "ev-7", "try again", true)
	if err != nil {
		t.Fatal(err)
	}
	if id != model.NormalizeConversationID(forkConv) {
		t.Errorf("id %q", id)
	}
	req := ts.first()
	want := map[string]any{"from_event_id": "ev-7", "title": "try again", "reset_metrics": true}
	if req.method != http.MethodPost || req.path != "/api/conversations/"+treeConv+"/fork" || req.key != treeKey {
		t.Errorf("request %s %s (key sent: %v)", req.method, req.path, req.key == treeKey)
	}
	if b, _ := json.Marshal(req.body); string(b) != mustMarshal(want) {
		t.Errorf("body %s, want %s", b, mustMarshal(want))
	}
	// No title, metrics kept: the title is left out, reset_metrics false.
	_, _ = c.Fork(context.Background(), treeConv, "ev-7", "", false)
	ts.mu.Lock()
	second := ts.requests[1].body
	ts.mu.Unlock()
	if _, has := second["title"]; has || second["reset_metrics"] != false {
		t.Errorf("body %v", second)
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestForkOfAServerWithoutTheTree(t *testing.T) {
	// A server that has fork but not from_event_id copies everything.
	_, c := newTreeServer(t, true, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id":"` + forkConv + `","execution_status":"idle","leaf_event_id":"ev-99"}`))
	})
	id, err := c.Fork(context.Background(), treeConv, "ev-7", "", true)
	if !errors.Is(err, ErrWholeFork) || id != model.NormalizeConversationID(forkConv) {
		t.Errorf("id %q, err %v: want the new id and ErrWholeFork", id, err)
	}
}

func TestTreeRoutesMissing(t *testing.T) {
	for _, exists := range []bool{true, false} {
		_, c := newTreeServer(t, exists, func(w http.ResponseWriter, r *http.Request, _ []byte) {
			// FastAPI's answer for a route it does not have, echoing the key
			// as a careless proxy might.
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"detail":"Not Found","key":"` + treeKey + `"}`))
		})
		_, forkErr := c.Fork(context.Background(), treeConv, "ev-1", "", true)
		navErr := c.Navigate(context.Background(), treeConv, "ev-1")
		for op, err := range map[string]error{"fork": forkErr, "navigate": navErr} {
			if strings.Contains(err.Error(), treeKey) {
				t.Errorf("%s: the key is in the error: %v", op, err)
			}
			if !exists {
				if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrTreeUnsupported) {
					t.Errorf("%s of a missing conversation: %v, want not found", op, err)
				}
				continue
			}
			var tu *TreeUnsupportedError
			if !errors.As(err, &tu) || tu.Op != op {
				t.Fatalf("%s: %v, want a TreeUnsupportedError", op, err)
			}
			if want := "this agent-server does not support " + op + " (older than 1.31)"; err.Error() != want {
				t.Errorf("%q, want %q", err, want)
			}
		}
	}
}

func TestNavigateAndSendMessageRequests(t *testing.T) {
	ts, c := newTreeServer(t, true, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if strings.HasSuffix(r.URL.Path, "/events") && r.URL.Query().Get("x") == "" {
			_, _ = w.Write([]byte(`{"success":true}`))
			return
		}
		_, _ = w.Write([]byte(`{"success":true}`))
	})
	if err := c.Navigate(context.Background(), treeConv, "ev-3"); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMessage(context.Background(), treeConv, "use printf\ninstead"); err != nil {
		t.Fatal(err)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	nav, msg := ts.requests[0], ts.requests[1]
	if nav.path != "/api/conversations/"+treeConv+"/navigate" || mustMarshal(nav.body) != `{"event_id":"ev-3"}` {
		t.Errorf("navigate: %s %v", nav.path, nav.body)
	}
	wantMsg := `{"content":[{"text":"use printf\ninstead","type":"text"}],"role":"user","run":true}`
	if msg.method != http.MethodPost || msg.path != "/api/conversations/"+treeConv+"/events" || mustMarshal(msg.body) != wantMsg {
		t.Errorf("message: %s %s %s", msg.method, msg.path, mustMarshal(msg.body))
	}
}

func TestConversationLineage(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		parent    string
		subs      int
	}{
		{"a fork", `{"id":"` + forkConv + `","forked_from_conversation_id":"` + treeConv + `","forked_from_event_id":"ev-7","leaf_event_id":"ev-9"}`, model.NormalizeConversationID(treeConv), 0},
		{"delegated", `{"id":"` + forkConv + `","parent_conversation_id":"` + strings.ToUpper(treeConv) + `","sub_conversation_ids":["` + treeConv + `", ""]}`, model.NormalizeConversationID(treeConv), 1},
		{"neither", `{"id":"` + forkConv + `","parent_conversation_id":null,"sub_conversation_ids":null}`, "", 0},
		{"wrong types", `{"id":"` + forkConv + `","parent_conversation_id":7,"sub_conversation_ids":"x","title":"still read"}`, "", 0},
		{"hostile", `{"id":"` + forkConv + `","forked_from_event_id":"\u001b[2Jev"}`, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := decodeConversation([]byte(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			if info.ParentID() != tc.parent || len(info.SubConversationIDs) != tc.subs {
				t.Errorf("parent %q subs %v", info.ParentID(), info.SubConversationIDs)
			}
			if strings.ContainsRune(info.ForkedFromEventID, 0x1b) {
				t.Errorf("an escape reached the event id: %q", info.ForkedFromEventID)
			}
			if tc.name == "wrong types" && info.Title != "still read" {
				t.Errorf("a lineage field of the wrong type lost the rest: %+v", info)
			}
		})
	}
}

// TestForkAndNavigateAgainstServe forks a real recording on ohwatch's own
// agent-server, sets the fork going with a message, watches it finish and
// moves the original's HEAD; then the same server made older answers 404
// and the client says the server is too old.
func TestForkAndNavigateAgainstServe(t *testing.T) {
	evs := testevents.Twin(t, "simple_echo_hello_world")
	s, c := startServe(t, serve.Options{}, treeConv, nil, evs)
	ctx := context.Background()
	waitUntil(t, "the replay", func() bool {
		n, err := c.CountEvents(ctx, treeConv)
		return err == nil && n >= len(evs)
	})
	var at model.Event
	for _, ev := range evs {
		if ev.Kind == "ActionEvent" {
			at = ev
			break
		}
	}
	id, err := c.Fork(ctx, treeConv, at.ID, "printf instead", true)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Conversation(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if info.ParentID() != model.NormalizeConversationID(treeConv) || info.ForkedFromEventID != at.ID || info.LeafEventID != at.ID || info.Title != "printf instead" {
		t.Errorf("fork info: %+v", info)
	}
	if err := c.SendMessage(ctx, id, "use printf"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the fork's run", func() bool {
		st, err := c.Confirm(ctx, id)
		return err == nil && st == model.StatusFinished
	})

	if err := c.Navigate(ctx, treeConv, evs[1].ID); err != nil {
		t.Fatal(err)
	}
	info, _ = c.Conversation(ctx, treeConv)
	if info.LeafEventID != evs[1].ID {
		t.Errorf("leaf %q after navigate", info.LeafEventID)
	}
	if err := c.Navigate(ctx, treeConv, "no-such-event"); err == nil || errors.Is(err, ErrTreeUnsupported) {
		t.Errorf("navigate to an unknown event: %v", err)
	}

	s.SetFaults(serve.Faults{NoTree: true})
	if _, err := c.Fork(ctx, treeConv, at.ID, "", true); !errors.Is(err, ErrTreeUnsupported) {
		t.Errorf("fork on an older server: %v", err)
	}
	if err := c.Navigate(ctx, treeConv, at.ID); !errors.Is(err, ErrTreeUnsupported) {
		t.Errorf("navigate on an older server: %v", err)
	}
}

// waitUntil polls cond until it holds or the test's patience ends.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
