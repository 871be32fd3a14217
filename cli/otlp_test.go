package cli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/serve"
)

// serveOne serves a recording under id on loopback, at full speed, until
// the test ends, and returns its URL.
func serveOne(t *testing.T, id string, conv *files.Conversation) string {
	t.Helper()
	srv := serve.New(serve.Options{Speed: 0, FinishConfirmDelay: 1})
	srv.Add(id, conv.Base, conv.Events)
	return startTestServer(t, srv)
}

// startTestServer starts srv on a free loopback port until the test ends,
// and returns its URL.
func startTestServer(t *testing.T, srv *serve.Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	url, err := srv.Start(ctx, "")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); cancel() })
	return url
}

// TestOTLPBackendDownChangesNothing: with the tracing backend down for the
// whole run, the watch's exit code and output are those of a watch without
// --otlp; the lost spans are counted on stderr.
func TestOTLPBackendDownChangesNothing(t *testing.T) {
	conv, err := files.Load(twin(t, "cli447_hi_followup_iterative_case_a"))
	if err != nil {
		t.Fatal(err)
	}
	id := "2f6f2ccc343c43749a75342cea50f198"
	url := serveOne(t, id, conv)
	// A port nothing listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String()
	l.Close()

	// A first watch lasts until the server's confirming snapshot, its last
	// frame: the two compared below then both find the replay over. One
	// that came while it was still going would see part of it live, and
	// its "connection: live" line elsewhere.
	if code, _, errs := runCmd(t, nil, "watch", url, "--conversation", id, "--headless", "--watch-timeout", "20s"); code != headless.ExitFinished {
		t.Fatalf("the replay did not end: exit %d\n%s", code, errs)
	}
	codeA, outA, _ := runCmd(t, nil, "watch", url, "--conversation", id, "--headless", "--watch-timeout", "20s")
	env := map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "x-api-key=hush-secret"}
	codeB, outB, errB := runCmd(t, env, "watch", url, "--conversation", id, "--headless", "--watch-timeout", "20s", "--otlp="+down)
	if codeA != headless.ExitFinished || codeB != codeA {
		t.Fatalf("exit %d without --otlp, %d with the backend down\n%s", codeA, codeB, errB)
	}
	if outA != outB {
		t.Fatalf("output differs with the backend down:\n--- without\n%s\n--- with\n%s", outA, outB)
	}
	m := regexp.MustCompile(`otlp: 0 spans sent to \S+ \S+, (\d+) dropped`).FindStringSubmatch(errB)
	if m == nil || m[1] == "0" {
		t.Fatalf("stderr does not count the dropped spans: %q", errB)
	}
	if strings.Contains(outB+errB, "hush-secret") {
		t.Fatal("a header value was printed")
	}
}

// TestExportOTLP: export --format otlp writes OTLP/JSON lines of the
// conversation's trace; with --otlp-content tool outputs are in it.
func TestExportOTLP(t *testing.T) {
	path := twin(t, "simple_echo_hello_world")
	for _, content := range []bool{false, true} {
		args := []string{"export", path, "--format", "otlp"}
		if content {
			args = append(args, "--otlp-content")
		}
		code, out, errs := runCmd(t, nil, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if !json.Valid([]byte(l)) || !strings.Contains(l, `"resourceSpans"`) {
				t.Fatalf("not an OTLP/JSON line: %.200s", l)
			}
		}
		for _, want := range []string{`"invoke_agent OpenHands"`, `"execute_tool terminal"`, `"user_turn"`} {
			if !strings.Contains(out, want) {
				t.Errorf("no %s span", want)
			}
		}
		if has := strings.Contains(out, "gen_ai.tool.call.result"); has != content {
			t.Errorf("--otlp-content %v: tool output present %v", content, has)
		}
	}
}

// TestOTLPBadSettingsAreUsageErrors: an unsupported protocol is exit 2,
// before anything is watched.
func TestOTLPBadSettingsAreUsageErrors(t *testing.T) {
	env := map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}
	code, _, errs := runCmd(t, env, "replay", twin(t, "simple_echo_hello_world"), "--headless", "--otlp")
	if code != exitUsage || !strings.Contains(errs, "not supported") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// TestReplayOTLPSendsTheExport: `replay --otlp` sends exactly the spans
// `export --format otlp` writes (same ids), over OTLP/HTTP protobuf.
func TestReplayOTLPSendsTheExport(t *testing.T) {
	c := newOTLPCollector(t)
	mu, got := &c.mu, c.spans
	path := twin(t, "confirmation_mode")
	code, _, errs := runCmd(t, nil, "replay", path, "--headless", "--otlp="+c.url)
	if !strings.Contains(errs, ", 0 dropped") {
		t.Fatalf("replay: exit %d, %s", code, errs)
	}
	_, out, _ := runCmd(t, nil, "export", path, "--format", "otlp")
	want := regexp.MustCompile(`"spanId":\s*"([0-9a-f]{16})"`).FindAllStringSubmatch(out, -1)
	mu.Lock()
	defer mu.Unlock()
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("replay sent %d spans, the export has %d", len(got), len(want))
	}
	for _, m := range want {
		if !got[m[1]] {
			t.Fatalf("span %s of the export was not sent", m[1])
		}
	}
}

// otlpCollector is an OTLP/HTTP protobuf endpoint that records the span
// and trace ids it receives.
type otlpCollector struct {
	url    string
	mu     sync.Mutex
	spans  map[string]bool
	traces map[string]int // spans per trace id
}

func newOTLPCollector(t *testing.T) *otlpCollector {
	c := &otlpCollector{spans: map[string]bool{}, traces: map[string]int{}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					c.spans[hex.EncodeToString(s.SpanId)] = true
					c.traces[hex.EncodeToString(s.TraceId)]++
				}
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(ts.Close)
	c.url = ts.URL
	return c
}
