package agentserver

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"ohwatch/model"
	"strings"
	"sync"
	"testing"
)

// TestListingMemoDecodesOnlyWhatChanged: with a memo, a second listing
// hands out the very infos of the first for items that came back byte for
// byte, and decodes afresh the one whose status changed; a listing that
// failed halfway leaves the memo as the last whole one left it.
func TestListingMemoDecodesOnlyWhatChanged(t *testing.T) {
	var mu sync.Mutex
	status := "running"
	failSecondPage := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Query().Get("page_id") == "" {
			fmt.Fprintf(w, `{"items":[{"id":"%032d","title":"a","execution_status":"finished"},{"id":"%032d","title":"b","execution_status":%q}],"next_page_id":"p2"}`, 1, 2, status)
			return
		}
		if failSecondPage {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, `{"items":[{"id":"%032d","title":"c","execution_status":"idle"}]}`, 3)
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	memo := &ListingMemo{}
	list := func() map[string]*ConversationInfo {
		t.Helper()
		got := map[string]*ConversationInfo{}
		_, err := c.ListConversations(context.Background(), ListOptions{Memo: memo}, func(infos []*ConversationInfo) {
			for _, in := range infos {
				got[in.ID] = in
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := list()
	mu.Lock()
	status = "finished"
	mu.Unlock()
	second := list()
	if len(second) != 3 {
		t.Fatalf("second listing has %d conversations, want 3", len(second))
	}
	for _, id := range []string{fmt.Sprintf("%032d", 1), fmt.Sprintf("%032d", 3)} {
		if first[id] != second[id] {
			t.Errorf("%s came back unchanged but was decoded again", id)
		}
	}
	changed := fmt.Sprintf("%032d", 2)
	if first[changed] == second[changed] || second[changed].ExecutionStatus != "finished" {
		t.Errorf("the changed item was not decoded afresh: %+v", second[changed])
	}

	// A listing that fails on its second page keeps the whole one's memo.
	mu.Lock()
	failSecondPage = true
	mu.Unlock()
	if _, err := c.ListConversations(context.Background(), ListOptions{Memo: memo}, func([]*ConversationInfo) {}); err == nil {
		t.Fatal("a listing whose second page failed reported no error")
	}
	mu.Lock()
	failSecondPage = false
	mu.Unlock()
	third := list()
	for id, in := range second {
		if third[id] != in {
			t.Errorf("%s was forgotten by a listing that failed", id)
		}
	}

	// Without a memo every listing decodes every item.
	plain := map[string]*ConversationInfo{}
	if _, err := c.ListConversations(context.Background(), ListOptions{}, func(infos []*ConversationInfo) {
		for _, in := range infos {
			plain[in.ID] = in
		}
	}); err != nil {
		t.Fatal(err)
	}
	for id, in := range plain {
		if third[id] == in {
			t.Errorf("%s shared without a memo", id)
		}
	}
}

// TestListingMemoKeepsNoLargeItem: an item over memoMaxItem (a hostile
// server's megabyte title) is decoded at every listing, never kept; the
// small item beside it is remembered by a hash of its bytes, and neither
// the memo nor what it hands out keeps the bytes themselves.
func TestListingMemoKeepsNoLargeItem(t *testing.T) {
	big := strings.Repeat("t", 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"items":[{"id":"%032d","title":%q},{"id":"%032d","title":"small"}]}`, 1, big, 2)
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	memo := &ListingMemo{}
	var got []*ConversationInfo
	for range 2 {
		got = nil
		l, err := c.ListConversations(context.Background(), ListOptions{Memo: memo}, func(p []*ConversationInfo) { got = append(got, p...) })
		if err != nil || l.Items != 2 {
			t.Fatalf("listing: %+v, %v", l, err)
		}
	}
	if len(memo.prev) != 1 {
		t.Errorf("the memo keeps %d items, want the small one", len(memo.prev))
	}
	for _, info := range got {
		if info.Base != nil && info.Base.Raw != nil && memo.prev[memo.key(info.Base.Raw)] == info {
			t.Errorf("%s is remembered with its %d raw bytes", info.ID, len(info.Base.Raw))
		}
	}
	for _, info := range memo.prev {
		if info.Base != nil && info.Base.Raw != nil {
			t.Errorf("the memo keeps %s with its %d raw bytes", info.ID, len(info.Base.Raw))
		}
	}
}

// TestListingMemoKeepsUsageSummed: a memo that summarises keeps what a
// row shows of a conversation's stats, summed from the whole stats (the
// calls counted from their lists), and not the stats themselves: the
// first listing's answer as the next's.
func TestListingMemoKeepsUsageSummed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"items":[{"id":"%032d","execution_status":"finished","stats":{"usage_to_metrics":{"agent":{"model_name":"m",`+
			`"accumulated_cost":0.025,"accumulated_token_usage":{"prompt_tokens":2000,"completion_tokens":100},`+
			`"costs":[{"model":"m","cost":0.0125},{"model":"m","cost":0.0125}],"response_latencies":[{"model":"m","latency":0.1,"response_id":"a"},{"model":"m","latency":0.1,"response_id":"b"}],`+
			`"token_usages":[{"model":"m","prompt_tokens":1000,"completion_tokens":50,"response_id":"a"},{"model":"m","prompt_tokens":1000,"completion_tokens":50,"response_id":"b"}]}}}}]}`, 1)
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	summed := 0
	memo := &ListingMemo{Summarize: func(st *model.Stats) *model.ListedUsage {
		summed++
		cost, tokens := st.Totals()
		return &model.ListedUsage{CostUSD: cost, Tokens: tokens, Calls: len(st.UsageToMetrics["agent"].TokenUsages), CostKnown: true, CallsKnown: true}
	}}
	want := model.ListedUsage{CostUSD: 0.025, Tokens: 2100, Calls: 2, CostKnown: true, CallsKnown: true}
	for i := range 2 {
		var got []*ConversationInfo
		if _, err := c.ListConversations(context.Background(), ListOptions{Memo: memo}, func(p []*ConversationInfo) { got = append(got, p...) }); err != nil || len(got) != 1 {
			t.Fatalf("listing %d: %d items, %v", i, len(got), err)
		}
		if u := got[0].Usage; u == nil || *u != want {
			t.Errorf("listing %d: usage %+v, want %+v", i, u, want)
		}
		if got[0].Base == nil || got[0].Base.Stats != nil || got[0].Base.ExecutionStatus != "finished" {
			t.Errorf("listing %d: base %+v, want its stats dropped and the rest kept", i, got[0].Base)
		}
	}
	if summed != 1 {
		t.Errorf("the stats were summed %d times, want once (the second listing is the memo's)", summed)
	}
}
