package otel

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
)

// Config says where a live sink sends its spans. The standard OTLP
// variables are read through Getenv: OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT,
// _PROTOCOL (http/protobuf, the default, or grpc) and _HEADERS.
type Config struct {
	// Endpoint is the --otlp value: a URL or host:port; "" means the
	// environment's, else localhost's default port for the protocol.
	Endpoint    string
	Getenv      func(string) string
	ServiceName string
	Version     string
	Options     Options
	// Queue tuning; zero means the default.
	QueueSize  int
	BatchSize  int
	FlushEvery time.Duration
	// Client replaces the OTLP client (tests).
	Client otlptrace.Client
}

// Sink sends the spans of live conversations to an OTLP endpoint: the
// builders hand it their spans as they end, and its queue has the SDK's
// OTLP client (otlptracehttp or otlptracegrpc) send them in batches.
type Sink struct {
	q        *queue
	endpoint string // for messages: no credentials, no query
	opts     Options
}

// The protocols of OTEL_EXPORTER_OTLP_PROTOCOL that the sink speaks.
const (
	ProtocolHTTP = "http/protobuf"
	ProtocolGRPC = "grpc"
)

// NewSink builds the OTLP client and the queue. Its errors name the
// endpoint without credentials and never a header.
func NewSink(cfg Config) (*Sink, error) {
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	client := cfg.Client
	endpoint := "test client"
	if client == nil {
		var err error
		client, endpoint, err = newClient(cfg.Endpoint, getenv)
		if err != nil {
			return nil, err
		}
	}
	size, batch, every := cfg.QueueSize, cfg.BatchSize, cfg.FlushEvery
	if size <= 0 {
		size = DefaultQueueSize
	}
	if batch <= 0 {
		batch = DefaultBatchSize
	}
	if every <= 0 {
		every = DefaultFlushEvery
	}
	q := newQueue(client, newConverter(cfg.ServiceName, cfg.Version), size, batch, every)
	return &Sink{q: q, endpoint: endpoint, opts: cfg.Options}, nil
}

// Endpoint names where the spans go, without credentials.
func (s *Sink) Endpoint() string { return s.endpoint }

// Counts reports the spans ended, sent and dropped so far.
func (s *Sink) Counts() Counts { return s.q.counts() }

// Shutdown sends what is queued until ctx is done, then stops.
func (s *Sink) Shutdown(ctx context.Context) error { return s.q.Shutdown(ctx) }

// newClient builds and starts the SDK's OTLP client of the endpoint and
// protocol: the transport of its exporters (headers, timeout, retry with
// backoff, the protobuf encoding), given the OTLP messages the queue makes.
func newClient(flagEndpoint string, getenv func(string) string) (otlptrace.Client, string, error) {
	protocol := firstSet(getenv, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")
	if protocol == "" {
		protocol = ProtocolHTTP
	}
	if protocol != ProtocolHTTP && protocol != ProtocolGRPC {
		return nil, "", fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL %q is not supported: use %s or %s", protocol, ProtocolHTTP, ProtocolGRPC)
	}
	u, err := endpointURL(flagEndpoint, protocol, getenv)
	if err != nil {
		return nil, "", err
	}
	headers, err := parseHeaders(firstSet(getenv, "OTEL_EXPORTER_OTLP_HEADERS"), firstSet(getenv, "OTEL_EXPORTER_OTLP_TRACES_HEADERS"))
	if err != nil {
		return nil, "", err
	}
	shown := Redact(u)
	ctx := context.Background()
	var client otlptrace.Client
	if protocol == ProtocolGRPC {
		client = otlptracegrpc.NewClient(otlptracegrpc.WithEndpointURL(u), otlptracegrpc.WithHeaders(headers),
			otlptracegrpc.WithTimeout(exportTimeout), otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig(retry)))
	} else {
		client = otlptracehttp.NewClient(otlptracehttp.WithEndpointURL(u), otlptracehttp.WithHeaders(headers),
			otlptracehttp.WithTimeout(exportTimeout), otlptracehttp.WithRetry(retry))
	}
	if err := client.Start(ctx); err != nil {
		// The SDK's message may quote the URL: name the endpoint ourselves.
		return nil, "", fmt.Errorf("otlp endpoint %s: cannot create the %s exporter", shown, protocol)
	}
	return client, protocol + " " + shown, nil
}

// exportTimeout bounds one export, retries included.
const exportTimeout = 10 * time.Second

// retry: back off from 250 ms to 2 s, for at most the export timeout.
var retry = otlptracehttp.RetryConfig{Enabled: true, InitialInterval: 250 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: exportTimeout}

// endpointURL resolves the endpoint: the flag's, else the traces-specific
// variable (used as it is), else the general one (with /v1/traces appended
// for HTTP, as the specification says), else localhost.
func endpointURL(flagEndpoint, protocol string, getenv func(string) string) (string, error) {
	raw, appendPath := flagEndpoint, true
	if raw == "" {
		if raw = getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); raw != "" {
			appendPath = false
		}
	}
	if raw == "" {
		raw = getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	if raw == "" {
		raw = "http://localhost:4318"
		if protocol == ProtocolGRPC {
			raw = "http://localhost:4317"
		}
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("otlp endpoint %q is not an http(s) URL or host:port", Redact(raw))
	}
	if protocol == ProtocolHTTP && appendPath && (u.Path == "" || u.Path == "/") {
		u.Path = "/v1/traces"
	}
	return u.String(), nil
}

// Redact returns a URL without its user info and query, for messages.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	u.User = nil
	u.RawQuery = ""
	u.Fragment = ""
	return u.String()
}

// parseHeaders reads OTEL_EXPORTER_OTLP_HEADERS-style lists,
// "k1=v1,k2=v2" with percent-encoded values; later lists win. Its errors
// never quote a value.
func parseHeaders(lists ...string) (map[string]string, error) {
	h := map[string]string{}
	for _, list := range lists {
		for _, item := range strings.Split(list, ",") {
			if strings.TrimSpace(item) == "" {
				continue
			}
			k, v, ok := strings.Cut(item, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				return nil, errors.New("OTEL_EXPORTER_OTLP_HEADERS: an item is not key=value")
			}
			dv, err := url.PathUnescape(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_HEADERS: the value of %q is not percent-encoded correctly", k)
			}
			h[k] = dv
		}
	}
	return h, nil
}

func firstSet(getenv func(string) string, keys ...string) string {
	for _, k := range keys {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return v
		}
	}
	return ""
}
