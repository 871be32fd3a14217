package agentserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRedirectToAnotherHostKeepsTheKey checks that a server redirecting a
// REST call to another host gets an error back instead of the session key
// travelling along: Go forwards custom headers across hosts by default.
func TestRedirectToAnotherHostKeepsTheKey(t *testing.T) {
	const key = "sk-oh-redirect-7c1d2e3f4a5b"
	var leaked atomic.Bool
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(sessionHeader) != "" {
			leaked.Store(true)
		}
		w.Write([]byte(`{"version":"1.0"}`))
	}))
	defer elsewhere.Close()
	// 127.0.0.1 and localhost are different hosts to the guard.
	other := strings.Replace(elsewhere.URL, "127.0.0.1", "localhost", 1)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other+r.URL.Path, http.StatusFound)
	}))
	defer origin.Close()

	for _, opts := range [][]Option{nil, {WithHTTPClient(&http.Client{})}} {
		c, err := New(origin.URL, key, opts...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ServerInfo(context.Background())
		if err == nil {
			t.Fatal("a redirect to another host was followed")
		}
		if strings.Contains(err.Error(), key) {
			t.Errorf("the error quotes the key: %v", err)
		}
		if !strings.Contains(err.Error(), "redirect") {
			t.Errorf("the error does not say why: %v", err)
		}
	}
	if leaked.Load() {
		t.Fatal("the session key reached another host through a redirect")
	}
}

// TestRedirectOnTheSameHostIsFollowed keeps the guard from breaking a
// proxy that redirects within its own host.
func TestRedirectOnTheSameHostIsFollowed(t *testing.T) {
	const key = "sk-oh-same-host"
	mux := http.NewServeMux()
	mux.HandleFunc("/old/server_info", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/new/server_info", http.StatusFound)
	})
	mux.HandleFunc("/new/server_info", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(sessionHeader) != key {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"version":"1.2.3"}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := New(srv.URL+"/old", key)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.ServerInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Version != "1.2.3" {
		t.Fatalf("version %q, want 1.2.3", info.Version)
	}
}
