package otel

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"ohwatch/internal/testevents"
	"ohwatch/reducer"
)

// otlpServer is an OTLP/HTTP endpoint that decodes what it is sent.
type otlpServer struct {
	mu      sync.Mutex
	spans   int
	headers []string
	status  int
}

func (s *otlpServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req coltracepb.ExportTraceServiceRequest
	if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, &req) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.headers = append(s.headers, r.Header.Get("Authorization"))
	if s.status != 0 {
		w.WriteHeader(s.status)
		return
	}
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			s.spans += len(ss.Spans)
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	b, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Write(b)
}

// follow sends a generated conversation through a sink and shuts it down.
func follow(t *testing.T, cfg Config) (*Sink, Counts) {
	t.Helper()
	sink, err := NewSink(cfg)
	if err != nil {
		t.Fatal(err)
	}
	live := sink.Follow("0123456789abcdef0123456789abcdef", reducer.Initial(nil, 0), false)
	evs := testevents.Generated(t, 500, 11)
	for i := 0; i < len(evs); i += 50 {
		live.Add(evs[i:min(i+50, len(evs))])
	}
	live.Add(evs[:100]) // a reconnect's replay: nothing new
	live.End()
	if err := sink.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return sink, sink.Counts()
}

// TestSinkSendsWithHeadersFromTheEnvironment: OTEL_EXPORTER_OTLP_HEADERS
// reach the endpoint (percent-decoded), every span is sent once.
func TestSinkSendsWithHeadersFromTheEnvironment(t *testing.T) {
	srv := &otlpServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": ts.URL, "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20s3cret-token"}
	sink, c := follow(t, Config{Getenv: func(k string) string { return env[k] }})
	if c.Sent == 0 || c.Dropped != 0 || c.Sent != c.Ended {
		t.Fatalf("counts %+v", c)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if int64(srv.spans) != c.Sent {
		t.Fatalf("server got %d spans, sink counted %d sent", srv.spans, c.Sent)
	}
	for _, h := range srv.headers {
		if h != "Bearer s3cret-token" {
			t.Fatalf("Authorization %q", h)
		}
	}
	if strings.Contains(sink.Endpoint(), "s3cret") {
		t.Fatal("the endpoint's description holds the header")
	}
}

// TestSinkCountsRejectedSpans: a backend that refuses everything loses
// every span, and says so in the counts.
func TestSinkCountsRejectedSpans(t *testing.T) {
	srv := &otlpServer{status: http.StatusBadRequest}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	_, c := follow(t, Config{Endpoint: ts.URL})
	if c.Ended == 0 || c.Sent != 0 || c.Dropped != c.Ended {
		t.Fatalf("counts %+v", c)
	}
}

// TestSinkConfigErrorsHideSecrets: bad settings are errors that name the
// endpoint without its credentials and never a header value.
func TestSinkConfigErrorsHideSecrets(t *testing.T) {
	cases := []struct {
		endpoint string
		env      map[string]string
		want     string
	}{
		{"", map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, "not supported"},
		{"ftp://user:pw-secret@host", nil, "not an http(s) URL"},
		{"", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "api-key=%zz-secret"}, "percent-encoded"},
		{"", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "no-equals-secret"}, "key=value"},
	}
	for _, c := range cases {
		_, err := NewSink(Config{Endpoint: c.endpoint, Getenv: func(k string) string { return c.env[k] }})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("%q %v: error %v", c.endpoint, c.env, err)
		}
	}
	sink, err := NewSink(Config{Endpoint: "https://user:pw-secret@collector.example:4318/?token=secret"})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Shutdown(context.Background())
	if e := sink.Endpoint(); strings.Contains(e, "secret") || !strings.Contains(e, "collector.example:4318") {
		t.Fatalf("endpoint shown as %q", e)
	}
}

// TestEndpointResolution follows the specification's rules.
func TestEndpointResolution(t *testing.T) {
	cases := []struct {
		flag     string
		env      map[string]string
		protocol string
		want     string
	}{
		{"", nil, ProtocolHTTP, "http://localhost:4318/v1/traces"},
		{"", nil, ProtocolGRPC, "http://localhost:4317"},
		{"collector:4318", nil, ProtocolHTTP, "http://collector:4318/v1/traces"},
		{"https://c.example/custom", nil, ProtocolHTTP, "https://c.example/custom"},
		{"", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, ProtocolHTTP, "http://c:4318/v1/traces"},
		{"", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/"}, ProtocolHTTP, "http://c:4318/"},
		{"http://flag:1", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:2"}, ProtocolHTTP, "http://flag:1/v1/traces"},
	}
	for _, c := range cases {
		got, err := endpointURL(c.flag, c.protocol, func(k string) string { return c.env[k] })
		if err != nil || got != c.want {
			t.Errorf("%q %v %s: %q %v, want %q", c.flag, c.env, c.protocol, got, err, c.want)
		}
	}
}
