package agentserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
)

// countingProxy sits in front of a server and counts the answers to
// confirmations that reach it.
func countingProxy(t *testing.T, target string) (string, *atomic.Int32) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	var posts atomic.Int32
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/respond_to_confirmation") {
			posts.Add(1)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &posts
}

// watchUntil watches the conversation until cond holds for its derived
// state, and returns that state.
func watchUntil(t *testing.T, c *Client, id, what string, cond func(reducer.State) bool) reducer.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	log := reducer.NewLog(nil, 0)
	for b := range c.Watch(ctx, id, WatchOptions{}) {
		log.Append(b.Events...)
		if st := log.Latest(); cond(st) {
			return st
		}
	}
	t.Fatalf("the watch ended before %s", what)
	return reducer.State{}
}

func pendingIDs(st reducer.State) []string {
	var ids []string
	for _, p := range st.Pending {
		ids = append(ids, p.ID)
	}
	return ids
}

// TestRespondToActionsAgainstServe answers the real confirmation recording
// through serve: an answer about other actions is withheld, one about the
// actions it waits on is sent, and the same answer again, once it no
// longer waits, is withheld.
func TestRespondToActionsAgainstServe(t *testing.T) {
	const id = "5f1b4a7e0c2d4e6f8a9b0c1d2e3f4a5b"
	evs := testevents.Twin(t, "confirmation_mode")
	_, direct := startServe(t, serve.Options{ConfirmHold: time.Minute}, id, nil, evs)
	front, posts := countingProxy(t, direct.BaseURL())
	c, err := New(front, e2eKey)
	if err != nil {
		t.Fatal(err)
	}
	waiting := watchUntil(t, c, id, "waiting for confirmation", func(st reducer.State) bool {
		return st.Status == model.StatusWaitingForConfirmation && len(st.Pending) > 0
	})
	ids := pendingIDs(waiting)
	ctx := context.Background()

	var nw *NotWaitingError
	err = c.RespondToActions(ctx, id, []string{"00000000-0000-4000-8000-000000000000"}, false, "")
	if !errors.Is(err, ErrNotWaiting) || !errors.As(err, &nw) || !strings.Contains(nw.Reason, "another action") {
		t.Fatalf("an answer about other actions: %v", err)
	}
	err = c.RespondToActions(ctx, id, append(ids, "00000000-0000-4000-8000-000000000000"), false, "")
	if !errors.Is(err, ErrNotWaiting) {
		t.Fatalf("an answer naming one action more than waits: %v", err)
	}
	if n := posts.Load(); n != 0 {
		t.Fatalf("%d answers sent for actions that do not wait", n)
	}

	if err := c.RespondToActions(ctx, id, ids, false, "too risky"); err != nil {
		t.Fatalf("the answer about the waiting actions: %v", err)
	}
	if n := posts.Load(); n != 1 {
		t.Fatalf("%d answers sent, want 1", n)
	}
	watchUntil(t, c, id, "the rejection", func(st reducer.State) bool {
		return st.Status != model.StatusWaitingForConfirmation && len(st.Pending) == 0
	})

	err = c.RespondToActions(ctx, id, ids, true, "")
	if !errors.As(err, &nw) || !strings.Contains(nw.Error(), "not sent: ") {
		t.Fatalf("an answer once nothing waits: %v", err)
	}
	if n := posts.Load(); n != 1 {
		t.Fatalf("%d answers sent, want still 1", n)
	}
}

func TestRespondToActionsNamesNothing(t *testing.T) {
	c, err := New("http://127.0.0.1:1", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.RespondToActions(context.Background(), fakeConversation, nil, true, ""); !errors.Is(err, ErrNotWaiting) {
		t.Fatalf("no ids: %v", err)
	}
}
