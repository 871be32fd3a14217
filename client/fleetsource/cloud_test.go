package fleetsource

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"ohwatch/client/cloud"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// fakeCloud is the part of the Cloud app server a fleet reads: the
// account's paged listing and each conversation's stored events. A
// running conversation's conversation_url points at a real agent-server
// (serve). Every request is recorded: the fleet must never resume
// or delete a sandbox.
type fakeCloud struct {
	srv  *httptest.Server
	mu   sync.Mutex
	list []map[string]any
	// stored are the events Cloud keeps per conversation id.
	stored   map[string][]json.RawMessage
	requests []string
	asked    signal // a request came
}

const cloudKey = "oh-api-key-0123456789"

func newFakeCloud(t *testing.T) *fakeCloud {
	f := &fakeCloud{stored: map[string][]json.RawMessage{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/app-conversations/search", func(w http.ResponseWriter, r *http.Request) {
		// Copies, taken under the lock: resume changes a listing while
		// an earlier page may still be encoding it.
		f.mu.Lock()
		items := make([]any, len(f.list))
		for i, c := range f.list {
			items[i] = maps.Clone(c)
		}
		f.mu.Unlock()
		page(w, r, items)
	})
	mux.HandleFunc("GET /api/v1/conversation/{id}/events/search", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		var items []any
		for _, raw := range f.stored[r.PathValue("id")] {
			items = append(items, raw)
		}
		f.mu.Unlock()
		page(w, r, items)
	})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		f.asked.notify()
		if r.Header.Get("X-Session-API-Key") != cloudKey {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// page answers one page of a search: page_id is an offset.
func page(w http.ResponseWriter, r *http.Request, items []any) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	if limit < 1 || limit > 100 {
		limit = 100
	}
	start, _ := strconv.Atoi(r.URL.Query().Get("page_id"))
	start = min(max(start, 0), len(items))
	end := min(start+limit, len(items))
	var next any
	if end < len(items) {
		next = strconv.Itoa(end)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"items": items[start:end], "next_page_id": next})
}

// add lists a conversation: running at the agent-server agentURL with key,
// or, when agentURL is "", with a paused sandbox.
func (f *fakeCloud) add(id, title, agentURL, key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := map[string]any{"id": id, "title": title, "sandbox_id": "sb-" + id[:8], "created_by_user_id": "u",
		"sandbox_status": "PAUSED", "execution_status": nil, "conversation_url": nil, "session_api_key": nil,
		"created_at": "2026-03-14T09:00:00Z", "updated_at": "2026-03-14T09:30:00Z",
		"metrics": map[string]any{"accumulated_cost": 1.5}}
	if agentURL != "" {
		c["sandbox_status"], c["execution_status"] = "RUNNING", "running"
		c["conversation_url"], c["session_api_key"] = agentURL+"/api/conversations/"+id, key
	}
	f.list = append(f.list, c)
}

// resume makes a listed conversation run at agentURL, as if someone
// resumed its sandbox.
func (f *fakeCloud) resume(id, agentURL, key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.list {
		if c["id"] == id {
			c["sandbox_status"], c["execution_status"] = "RUNNING", "running"
			c["conversation_url"], c["session_api_key"] = agentURL+"/api/conversations/"+id, key
		}
	}
}

// set changes one field of a listed conversation.
func (f *fakeCloud) set(id, field string, value any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.list {
		if c["id"] == id {
			c[field] = value
		}
	}
}

func cloudSession(t *testing.T, f *fakeCloud) *cloud.Session {
	s, err := cloud.New(cloud.Config{APIKey: cloudKey, BaseURL: f.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCloudSourceRunningAndPaused watches an account of 104 conversations
// (two pages): running ones stream live from their agent-server; a paused
// one is shown from the events Cloud stored, marked paused, and its
// sandbox is never resumed (only GETs reach Cloud). When it runs again,
// its live stream brings only what the stored events did not hold.
func TestCloudSourceRunningAndPaused(t *testing.T) {
	srv, agentURL, recs := serveFleet(t, "sandbox-key", 103, 8, 5)
	f := newFakeCloud(t)
	for id := range recs {
		f.add(id, "run "+id[:8], agentURL, "sandbox-key")
	}
	const paused = "00000000000000000000000000000bed"
	stored := testevents.Generated(t, 30, 99)
	for _, ev := range stored[:20] {
		f.stored[paused] = append(f.stored[paused], ev.Raw)
	}
	f.add(paused, "paused one", "", "")

	// Streams enough for every one: the cap is the next test's.
	v, _ := watchFleet(t, Cloud(cloudSession(t, f), CloudOptions{Interval: fastServer.Interval, MaxBackoff: fastServer.MaxBackoff, Watch: fastWatch, MaxStreams: 200}))
	v.waitFor(t, "every running conversation and the stored one", func(v *fleetView) bool {
		for id, rec := range recs {
			if !hasAll(v.conv(id), rec) {
				return false
			}
		}
		return hasAll(v.conv(paused), stored[:20])
	})
	v.mu.Lock()
	p := v.conv(paused)
	if len(p.metas) == 0 || !p.metas[0].Paused || p.metas[0].Title != "paused one" || p.metas[0].Stats == nil {
		t.Errorf("the paused one's listing: %+v", p.metas)
	}
	if len(p.ids) != 20 {
		t.Errorf("the paused one: %d events, want the 20 stored", len(p.ids))
	}
	v.mu.Unlock()
	f.mu.Lock()
	for _, r := range f.requests {
		if r[:4] != "GET " {
			t.Errorf("the fleet sent %s to Cloud", r)
		}
	}
	f.mu.Unlock()

	// Someone resumes it: it now runs on the agent-server, whole.
	srv.Add(paused, nil, stored)
	f.resume(paused, agentURL, "sandbox-key")
	v.waitFor(t, "the resumed one live", func(v *fleetView) bool { return hasAll(v.conv(paused), stored) })
	noDuplicates(t, v)
	v.mu.Lock()
	defer v.mu.Unlock()
	if c := v.conv(paused); len(c.metas) < 2 || c.metas[len(c.metas)-1].Paused {
		t.Errorf("the resumed one's listing still says paused: %+v", c.metas)
	}
}

// TestCloudSourceStreamsAtMostMaxStreams lists 10 conversations whose
// sandboxes run (2 finished, 6 running, 2 waiting for confirmation) with
// at most 3 streams: the 2 waiting ones and the most recently updated
// running one are streamed, never more than 3 sockets at once; the
// finished ones rest on their listing with no socket. A finished one that
// runs again, updated last, is streamed and displaces the older run.
func TestCloudSourceStreamsAtMostMaxStreams(t *testing.T) {
	h := newHostile(t)
	f := newFakeCloud(t)
	base := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	for i := range 10 {
		status := model.StatusRunning
		switch {
		case i < 2:
			status = model.StatusFinished
		case i >= 8:
			status = model.StatusWaitingForConfirmation
		}
		id := hexID(i)
		h.serveConversation(id)
		f.add(id, fmt.Sprint("run ", i), h.srv.URL, "sandbox-key")
		f.set(id, "execution_status", status)
		f.set(id, "updated_at", base.Add(-time.Duration(i)*time.Minute).Format(time.RFC3339))
	}
	v, _ := watchFleet(t, Cloud(cloudSession(t, f), CloudOptions{Interval: fastServer.Interval, MaxBackoff: fastServer.MaxBackoff, Watch: fastWatch, MaxStreams: 3}))
	want := []string{hexID(2), hexID(8), hexID(9)}
	v.waitFor(t, "the 3 most urgent streamed and live", func(v *fleetView) bool {
		for _, id := range want {
			if lastConn(v.conv(id)).Phase != model.PhaseLive {
				return false
			}
		}
		return v.conversations() == 10
	})
	// Several listings later, nothing else was streamed.
	listings := func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		n := 0
		for _, r := range f.requests {
			if r == "GET /api/v1/app-conversations/search" {
				n++
			}
		}
		return n
	}
	seen := listings()
	v.waitFor(t, "three more listings", func(*fleetView) bool { return listings() >= seen+3 }, &f.asked)
	h.state(func(h *hostile) {
		if h.peak > 3 {
			t.Errorf("%d sockets open at once, want at most 3", h.peak)
		}
		for id := range h.streamed {
			if !slices.Contains(want, id) {
				t.Errorf("%s was streamed; only %v should be", id, want)
			}
		}
	})
	v.mu.Lock()
	for i := range 2 {
		if c := v.conv(hexID(i)); lastConn(c).Phase != model.PhaseListed || len(c.ids) > 0 {
			t.Errorf("finished %s: conn %+v, %d events; want its listing alone", hexID(i), lastConn(c), len(c.ids))
		}
	}
	v.mu.Unlock()
	// A finished one runs again, updated last.
	f.set(hexID(0), "execution_status", model.StatusRunning)
	f.set(hexID(0), "updated_at", base.Add(time.Hour).Format(time.RFC3339))
	v.waitFor(t, "the one that runs again streamed, the older run displaced", func(v *fleetView) bool {
		return lastConn(v.conv(hexID(0))).Phase == model.PhaseLive && lastConn(v.conv(hexID(2))).Phase == model.PhaseListed
	})
}
