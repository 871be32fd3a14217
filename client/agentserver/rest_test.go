package agentserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ohwatch/model"
)

func TestNewValidatesBaseURL(t *testing.T) {
	for _, tc := range []struct {
		in      string
		wantErr string
		base    string
	}{
		{in: "http://127.0.0.1:8000", base: "http://127.0.0.1:8000"},
		{in: "https://sandbox.example/runtime/abc/", base: "https://sandbox.example/runtime/abc"},
		{in: "ws://127.0.0.1:8000", base: "http://127.0.0.1:8000"},
		{in: "ftp://x", wantErr: "scheme"},
		{in: "http://user:secret@host", wantErr: "credentials"},
		{in: "http://host/?session_api_key=x", wantErr: "query"},
		{in: "http://", wantErr: "host"},
		{in: "http://user:secret@host:port", wantErr: "port"},
	} {
		c, err := New(tc.in, "k")
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("New(%q) error = %v, want it to mention %q", tc.in, err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("New(%q) error quotes the credentials: %v", tc.in, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("New(%q): %v", tc.in, err)
		}
		if got := c.BaseURL(); got != tc.base {
			t.Errorf("BaseURL() = %q, want %q", got, tc.base)
		}
	}
}

func TestSocketURL(t *testing.T) {
	for _, tc := range []struct {
		base, anchor string
		mode         resendMode
		want         string
	}{
		{"http://127.0.0.1:8000", "2026-01-27T03:56:22.906445", resendSince,
			"ws://127.0.0.1:8000/sockets/events/abc?after_timestamp=2026-01-27T03%3A56%3A22.906445&resend_mode=since"},
		{"https://h.example/prefix/", "", resendSince,
			"wss://h.example/prefix/sockets/events/abc?resend_all=true&resend_mode=all"},
		{"https://h.example/p", "2026-01-27T03:56:22", resendAll,
			"wss://h.example/p/sockets/events/abc?resend_all=true&resend_mode=all"},
	} {
		c, err := New(tc.base, "the-key")
		if err != nil {
			t.Fatal(err)
		}
		got := c.socketURL("abc", tc.mode, tc.anchor)
		if got != tc.want {
			t.Errorf("socketURL(%s) = %s, want %s", tc.base, got, tc.want)
		}
		if strings.Contains(got, "the-key") {
			t.Errorf("socket URL carries the key: %s", got)
		}
	}
}

func TestConversation(t *testing.T) {
	f := newFakeServer(t, "k3y")
	c := f.client(t)
	info, err := c.Conversation(context.Background(), f.id)
	if err != nil {
		t.Fatal(err)
	}
	if info.ID != fakeConversation || info.Title != "Fix the bug" || info.ExecutionStatus != "running" {
		t.Errorf("info = %+v", info)
	}
	if info.CreatedAt.IsZero() || info.Base == nil || info.Base.MaxIterations != 500 {
		t.Errorf("info missing created_at or base state: %+v base=%+v", info, info.Base)
	}
	status, err := c.Confirm(context.Background(), f.id)
	if err != nil || status != model.StatusRunning {
		t.Errorf("Confirm = %q, %v", status, err)
	}
}

func TestHTTPErrorsMapToSentinels(t *testing.T) {
	const key = "sk-very-secret-key"
	for _, tc := range []struct {
		status int
		want   error
	}{
		{http.StatusUnauthorized, ErrAuth},
		{http.StatusForbidden, ErrAuth},
		{http.StatusNotFound, ErrNotFound},
		{http.StatusConflict, ErrConflict},
		{http.StatusInternalServerError, nil},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// A hostile or careless server echoing the key back.
			http.Error(w, "boom \x1b[31m"+r.Header.Get(sessionHeader)+"\x1b[0m", tc.status)
		}))
		c, _ := New(srv.URL, key)
		_, err := c.Conversation(context.Background(), "abc")
		srv.Close()
		if err == nil {
			t.Fatalf("status %d: no error", tc.status)
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("status %d: %v is not %v", tc.status, err, tc.want)
		}
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != tc.status || he.Route != "/api/conversations/abc" {
			t.Errorf("status %d: error %v lacks status or route", tc.status, err)
		}
		msg := err.Error()
		if strings.Contains(msg, key) || strings.Contains(msg, "\x1b") {
			t.Errorf("status %d: error leaks the key or control bytes: %q", tc.status, msg)
		}
		if !strings.Contains(msg, "boom") || !strings.Contains(msg, "[redacted]") {
			t.Errorf("status %d: error lacks the body excerpt: %q", tc.status, msg)
		}
	}
}

func TestConnectErrorIsErrConnect(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close() // nothing listens there now
	c, _ := New(base, "k")
	_, err := c.ServerInfo(context.Background())
	if !errors.Is(err, ErrConnect) {
		t.Fatalf("err = %v, want ErrConnect", err)
	}
	if !strings.Contains(err.Error(), "/server_info") {
		t.Errorf("error does not name the route: %v", err)
	}
}

func TestEventsPagesInclusively(t *testing.T) {
	f := newFakeServer(t, "k")
	ids := f.persist(250)
	evs, err := f.client(t).Events(context.Background(), f.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != len(ids) {
		t.Fatalf("got %d events, want %d", len(evs), len(ids))
	}
	for i, ev := range evs {
		if ev.ID != ids[i] {
			t.Fatalf("event %d = %s, want %s", i, ev.ID, ids[i])
		}
	}
	if n := len(f.urls); n != 3 {
		t.Errorf("made %d requests for 250 events, want 3 pages", n)
	}
	for _, u := range f.urls {
		if !strings.Contains(u, "limit=100") {
			t.Errorf("request without limit=100: %s", u)
		}
	}
}

func TestEventsOverlappingPagesAreDeduplicated(t *testing.T) {
	// A server whose next_page_id is the last item of the current page
	// (an exclusive-cursor mindset) repeats one event per page.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("page_id") {
		case "":
			w.Write([]byte(`{"items":[{"kind":"PauseEvent","id":"a"},{"kind":"PauseEvent","id":"b"}],"next_page_id":"b"}`))
		case "b":
			w.Write([]byte(`{"items":[{"kind":"PauseEvent","id":"b"},{"kind":"PauseEvent","id":"c"}],"next_page_id":null}`))
		}
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	evs, err := c.Events(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		got = append(got, ev.ID)
	}
	if strings.Join(got, ",") != "a,b,c" {
		t.Errorf("ids = %v, want a,b,c", got)
	}
}

func TestEventsPagingLoopIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"items":[{"kind":"PauseEvent","id":"a"}],"next_page_id":"a"}`))
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "")
	if _, err := c.Events(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "does not advance") {
		t.Fatalf("err = %v, want a paging error", err)
	}
}

func TestSearchAndCountConversations(t *testing.T) {
	f := newFakeServer(t, "k")
	c := f.client(t)
	infos, err := c.SearchConversations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 || infos[0].ExecutionStatus != "finished" || infos[1].ExecutionStatus != "idle" {
		t.Fatalf("search = %+v", infos)
	}
	if infos[1].ID != "ffffc3d4e5f60718293a4b5c6d7e8f90" {
		t.Errorf("second id = %q", infos[1].ID)
	}
	n, err := c.CountConversations(context.Background())
	if err != nil || n != 1 {
		t.Errorf("count = %d, %v", n, err)
	}
}

func TestServerInfo(t *testing.T) {
	f := newFakeServer(t, "")
	info, err := f.client(t).ServerInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Version != "1.43.1" || info.SDKVersion != "1.43.1" || info.IdleTime != 3.25 || info.Uptime != 12.5 {
		t.Errorf("info = %+v", info)
	}
}

func TestControlCalls(t *testing.T) {
	f := newFakeServer(t, "k")
	c := f.client(t)
	ctx := context.Background()
	if err := c.RespondToConfirmation(ctx, f.id, false, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.RespondToConfirmation(ctx, f.id, true, "looks safe"); err != nil {
		t.Fatal(err)
	}
	if err := c.Pause(ctx, f.id); err != nil {
		t.Fatal(err)
	}
	if err := c.Interrupt(ctx, f.id); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx, f.id); !errors.Is(err, ErrConflict) {
		t.Errorf("Run on a running conversation = %v, want ErrConflict", err)
	}
	p := "/api/conversations/" + f.id
	want := []string{
		"POST " + p + "/events/respond_to_confirmation",
		"POST " + p + "/events/respond_to_confirmation",
		"POST " + p + "/pause",
		"POST " + p + "/interrupt",
		"POST " + p + "/run",
	}
	if strings.Join(f.posts, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(f.posts, "\n"), strings.Join(want, "\n"))
	}
	if f.bodies[0] != `{"accept":false,"reason":"User rejected the action."}` || f.bodies[1] != `{"accept":true,"reason":"looks safe"}` {
		t.Errorf("confirmation bodies = %q", f.bodies[:2])
	}
	for _, h := range f.headers {
		if h.Get(sessionHeader) != "k" {
			t.Errorf("a request went without the session header")
		}
	}
}
