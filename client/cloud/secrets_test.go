package cloud

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestSecretsNeverLeak drives every path — start, attach, a failing server
// that echoes the key — and searches everything the session let out for the
// API key and the session key: request URLs, log records, errors, progress
// lines and the String forms of Config and Target.
func TestSecretsNeverLeak(t *testing.T) {
	h := newHarness(t)
	cfg := h.config()
	var outputs []string

	s := h.session(t, cfg)
	target, err := s.Start(context.Background())
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	outputs = append(outputs, target.String(), fmt.Sprintf("%v|%+v|%#v", target, target, target))
	if err := s.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s.log.Info("target", "t", target, "cfg", cfg)

	attach := h.session(t, cfg)
	h.cloud.addConversation("PAUSED")
	if _, err := attach.Attach(context.Background(), fakeConvID); err != nil {
		t.Fatalf("Attach: %v", err)
	}

	h.cloud.mu.Lock()
	h.cloud.echoKeyOnError = true
	h.cloud.mu.Unlock()
	failing := h.session(t, cfg)
	_, err = failing.Start(context.Background())
	if err == nil {
		t.Fatal("Start against an erroring server succeeded")
	}
	if !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("the echoed key was not redacted: %v", err)
	}
	outputs = append(outputs, err.Error())
	_, err = failing.Attach(context.Background(), fakeConvID)
	outputs = append(outputs, err.Error())

	outputs = append(outputs, fmt.Sprintf("%v|%+v|%#v|%s", cfg, cfg, cfg, cfg))
	outputs = append(outputs, h.logs.String())
	outputs = append(outputs, h.progress()...)
	_, _, reqs := h.cloud.snapshot()
	for _, r := range reqs {
		outputs = append(outputs, r.Path+"?"+r.RawQuery)
	}
	if !strings.Contains(h.logs.String(), "/api/v1/sandboxes") {
		t.Fatalf("the logger captured no request records:\n%s", h.logs.String())
	}
	for _, out := range outputs {
		for _, secret := range []string{testAPIKey, fakeSessionKey} {
			if strings.Contains(out, secret) {
				t.Errorf("secret %q leaked in %q", secret, out)
			}
		}
	}
}

// TestRedirectToAnotherHostRefused: a redirect would carry the key headers
// to the other host, so it is refused and the other host sees nothing.
func TestRedirectToAnotherHostRefused(t *testing.T) {
	var stolen atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Session-API-Key") != "" || r.Header.Get("Authorization") != "" || r.Header.Get("X-Access-Token") != "" {
			stolen.Add(1)
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer other.Close()
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirecting.Close()

	s, err := New(Config{APIKey: testAPIKey, BaseURL: redirecting.URL, PollInterval: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "refusing a redirect") {
		t.Fatalf("Start error = %v, want a refused redirect", err)
	}
	if stolen.Load() != 0 {
		t.Errorf("the other host received the key %d times", stolen.Load())
	}
	if strings.Contains(err.Error(), testAPIKey) {
		t.Errorf("error quotes the key: %v", err)
	}
}

func TestValidationDetailIsReadable(t *testing.T) {
	h := newHarness(t)
	s := h.session(t, h.config())
	// An empty id list is a 422 from the schema's required query parameter.
	err := s.api.do(context.Background(), http.MethodGet, "/api/v1/sandboxes", nil, nil, nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 422 {
		t.Fatalf("error = %v, want a 422 APIError", err)
	}
	if apiErr.Detail != "[query id]: Field required" {
		t.Errorf("Detail = %q", apiErr.Detail)
	}
	if errors.Is(err, ErrAuth) {
		t.Error("a 422 matched ErrAuth")
	}
}

func TestServerTextIsSanitised(t *testing.T) {
	h := newHarness(t)
	h.cloud.sandboxStatuses = []string{"ERROR"}
	h.cloud.sandboxDetail = "pull failed\x1b[2J\x1b]0;owned\x07 " + strings.Repeat("x", 1000)
	s := h.session(t, h.config())
	defer s.Close(context.Background())
	_, err := s.Start(context.Background())
	if !errors.Is(err, ErrSandbox) {
		t.Fatalf("Start error = %v, want ErrSandbox", err)
	}
	if strings.ContainsAny(err.Error(), "\x1b\x07\n") {
		t.Errorf("control characters reached the error: %q", err)
	}
	if len(err.Error()) > maxDetail+200 {
		t.Errorf("error is %d bytes long; server text is not capped", len(err.Error()))
	}
}

func TestBindFlagsNeverPrintsTheKey(t *testing.T) {
	cfg, err := ConfigFromEnv(mapEnv(map[string]string{"OH_API_KEY": testAPIKey}))
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("cloud", flag.ContinueOnError)
	var usage strings.Builder
	fs.SetOutput(&usage)
	BindFlags(fs, &cfg)
	fs.PrintDefaults()
	if strings.Contains(usage.String(), testAPIKey) {
		t.Errorf("usage shows the key:\n%s", usage.String())
	}
	if !strings.Contains(usage.String(), "-api-key") {
		t.Errorf("usage lacks -api-key:\n%s", usage.String())
	}
}
