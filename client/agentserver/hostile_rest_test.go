package agentserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestHistoryThatPagesForEverStops: a server answering every page with the
// same events and a fresh next_page_id made tens of thousands of requests
// and never let the watch reach the socket. A page that brings nothing new
// ends the history, with every event once.
func TestHistoryThatPagesForEverStops(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		fmt.Fprintf(w, `{"items":[{"kind":"PauseEvent","id":"a"},{"kind":"PauseEvent","id":"b"}],"next_page_id":"fresh-%d"}`, n)
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	evs, err := c.Events(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || requests.Load() != 2 {
		t.Fatalf("%d events in %d requests, want 2 events in 2", len(evs), requests.Load())
	}
	// The conversation search stops the same way.
	requests.Store(0)
	conv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		fmt.Fprintf(w, `{"items":[{"id":"0123456789abcdef0123456789abcdef","title":"t"}],"next_page_id":"p%d"}`, n)
	}))
	defer conv.Close()
	c, _ = New(conv.URL, "")
	infos, err := c.SearchConversations(context.Background())
	if err != nil || len(infos) != 1 || requests.Load() != 2 {
		t.Fatalf("%d conversations in %d requests (%v), want 1 in 2", len(infos), requests.Load(), err)
	}
}

// TestHistoryWithEndlessNewPagesIsCapped: a server that invents new events
// on every page is cut off after the page cap, with an error that says so.
func TestHistoryWithEndlessNewPagesIsCapped(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		fmt.Fprintf(w, `{"items":[{"kind":"PauseEvent","id":"e%d"}],"next_page_id":"p%d"}`, n, n)
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	c.maxPages = 50
	_, err := c.Events(context.Background(), "x")
	if err == nil || !strings.Contains(err.Error(), "gave up after 50 pages") {
		t.Fatalf("err = %v, want the page cap", err)
	}
	if requests.Load() != 50 {
		t.Errorf("%d requests, want 50", requests.Load())
	}
}

// TestHugeRESTAnswerIsRefused: an answer past the limit is refused with
// "response too large" — announced (Content-Length) before anything is
// read, or streamed without a length, reading at most the limit — instead
// of being read whole into memory.
func TestHugeRESTAnswerIsRefused(t *testing.T) {
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("announce") != "" {
			w.Header().Set("Content-Length", strconv.Itoa(600<<20))
		}
		chunk := []byte(`{"id":"` + strings.Repeat("x", 64<<10) + `"}` + "\n")
		w.Write([]byte(`{"items":[`))
		for i := 0; i < (600<<20)/len(chunk); i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			sent.Add(int64(len(chunk)))
		}
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	for _, announce := range []string{"1", ""} {
		sent.Store(0)
		q := map[string][]string{}
		if announce != "" {
			q["announce"] = []string{announce}
		}
		err := c.getJSON(context.Background(), "/api/conversations/x/events/search", q, new(page))
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "response too large") {
			t.Fatalf("announce=%q: err = %v, want response too large", announce, err)
		}
	}
	if got := sent.Load(); got > 2*maxResponseBytes {
		t.Errorf("the server sent %d bytes before the client gave up", got)
	}
}

// TestTooLargePageIsAskedForInSmallerPages: a page of events with big
// payloads over the body limit is fetched again in smaller pages, so only
// a single event over the limit can fail the history.
func TestTooLargePageIsAskedForInSmallerPages(t *testing.T) {
	big := strings.Repeat("y", 1000)
	var mu sync.Mutex
	var limits []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		mu.Lock()
		limits = append(limits, limit)
		mu.Unlock()
		start, _ := strconv.Atoi(r.URL.Query().Get("page_id"))
		var items []string
		for i := start; i < min(start+limit, 10); i++ {
			items = append(items, fmt.Sprintf(`{"kind":"PauseEvent","id":"e%d","x":%q}`, i, big))
		}
		next := "null"
		if start+limit < 10 {
			next = strconv.Quote(strconv.Itoa(start + limit))
		}
		fmt.Fprintf(w, `{"items":[%s],"next_page_id":%s}`, strings.Join(items, ","), next)
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	c.maxBody = 3000 // two events fit, a page of ten does not
	evs, err := c.Events(context.Background(), "x")
	if err != nil || len(evs) != 10 {
		t.Fatalf("%d events, %v; want all 10 in smaller pages", len(evs), err)
	}
	mu.Lock()
	sizes := slices.Clone(limits)
	mu.Unlock()
	if sizes[0] != 100 || !slices.Contains(sizes, 1) || sizes[slices.Index(sizes, 1)+1] != 2 {
		t.Errorf("page sizes %v: want 100, smaller until one fits, then growing back", sizes)
	}
	c.maxBody = 500 // not even one event fits
	if _, err := c.Events(context.Background(), "x"); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}
