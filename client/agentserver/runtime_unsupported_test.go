package agentserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestForkAnswered501: a 501 to fork is ErrRuntimeUnsupported (and
// ErrTreeUnsupported: asking again changes nothing), worded for a Docker
// runtime when the server says so (upstream docker_runtime/routers.py,
// commit 0140f789: "This operation is unavailable in Docker runtime mode"),
// and plainly otherwise; never the HTTP exchange.
func TestForkAnswered501(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"detail":"This operation is unavailable in Docker runtime mode"}`, "this server cannot fork a conversation in its Docker runtime"},
		{`{"detail":"Not Implemented"}`, "this server does not implement fork (501)"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotImplemented)
			_, _ = w.Write([]byte(tc.body))
		}))
		c, _ := New(srv.URL, "")
		_, err := c.Fork(context.Background(), "0123456789abcdef0123456789abcdef", "", "", true)
		srv.Close()
		if !errors.Is(err, ErrRuntimeUnsupported) || !errors.Is(err, ErrTreeUnsupported) || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.body, err, tc.want)
		}
	}
}
