package cloud

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestHugeReplyIsRefused: a 2xx reply past the limit is "response too
// large", not a confusing "unexpected end of JSON input" from a cut body;
// an error reply that large is still quoted only as a short excerpt.
func TestHugeReplyIsRefused(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		w.Write([]byte(`{"detail":"` + strings.Repeat("x", maxResponseBytes+10) + `"}`))
	}))
	defer srv.Close()
	base, _ := url.Parse(srv.URL)
	a := newAPI(base, "oh-key-0123456789abcdef", nil, slog.New(slog.DiscardHandler), &redactor{})
	var out map[string]any
	err := a.do(context.Background(), http.MethodGet, "/api/v1/sandboxes", nil, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "response too large") {
		t.Fatalf("err = %v, want response too large", err)
	}
	status = http.StatusInternalServerError
	err = a.do(context.Background(), http.MethodGet, "/api/v1/sandboxes", nil, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "HTTP 500") || len(err.Error()) > 400 {
		t.Fatalf("err = %.200v (%d bytes), want a short HTTP 500", err, len(err.Error()))
	}
}
