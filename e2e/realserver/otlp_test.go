package realserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// jaegerConfig is a minimal Jaeger v2 all-in-one: OTLP/HTTP in, memory
// storage, the query API.
const jaegerConfig = `
service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:${env:JQ_HTTP}
    grpc:
      endpoint: 127.0.0.1:${env:JQ_GRPC}
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 1000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${env:JQ_OTLP_HTTP}
processors:
  batch:
    timeout: 50ms
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`

// startJaeger starts the Jaeger all-in-one OHWATCH_JAEGER names (.ci/run
// builds it from tools/jaeger) and returns its query and OTLP/HTTP URLs.
// Without it the test is skipped, as the root package's Jaeger test is.
func startJaeger(t *testing.T) (query, otlp string) {
	t.Helper()
	bin := os.Getenv("OHWATCH_JAEGER")
	if bin == "" {
		t.Skip("no Jaeger binary: set OHWATCH_JAEGER to a Jaeger all-in-one (cd tools/jaeger && go build -o /tmp/jaeger github.com/jaegertracing/jaeger/cmd/jaeger)")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfg, []byte(jaegerConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	var ports []string
	for range 3 {
		p, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--config=file:"+cfg)
	cmd.Env = append(os.Environ(), "JQ_HTTP="+ports[0], "JQ_GRPC="+ports[1], "JQ_OTLP_HTTP="+ports[2])
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("jaeger's log:\n%s", logs.String())
		}
	})
	query, otlp = "http://127.0.0.1:"+ports[0], "http://127.0.0.1:"+ports[2]
	if !eventually(60*time.Second, func() bool {
		resp, err := http.Get(query + "/api/services")
		if err != nil {
			return false
		}
		resp.Body.Close()
		c, err := net.Dial("tcp", "127.0.0.1:"+ports[2])
		if err != nil {
			return false
		}
		c.Close()
		return true
	}) {
		t.Fatal("jaeger did not come up in 60s")
	}
	return query, otlp
}

// TestOTLPToJaeger: a watch of a real run with --otlp puts one trace in
// Jaeger, its id the conversation's: the agent's root span, a chat span
// per LLM call the watch learnt of and a tool span per action.
func TestOTLPToJaeger(t *testing.T) {
	t.Parallel()
	query, otlp := startJaeger(t)
	id := shared.create(t, convSpec{message: "STEPS=3"})
	r := ohwatch(t, watchArgs(shared, id, "--otlp="+otlp)...)
	if r.code != 0 || !strings.Contains(r.stderr, ", 0 dropped") {
		t.Fatalf("watch --otlp: exit %d\n%s", r.code, r.stderr)
	}
	actions := 0
	for _, ev := range shared.events(t, id) {
		if ev.Kind == "ActionEvent" {
			actions++
		}
	}
	calls, perUsage := llmCalls(t, id)
	traceID := strings.ReplaceAll(id, "-", "")
	var roots, chats, tools int
	ok := eventually(30*time.Second, func() bool {
		var doc struct {
			Data []struct {
				Spans []struct {
					Tags []struct {
						Key   string `json:"key"`
						Value any    `json:"value"`
					} `json:"tags"`
				} `json:"spans"`
			} `json:"data"`
		}
		resp, err := http.Get(query + "/api/traces/" + traceID)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		if json.NewDecoder(resp.Body).Decode(&doc) != nil || len(doc.Data) != 1 {
			return false
		}
		roots, chats, tools = 0, 0, 0
		for _, s := range doc.Data[0].Spans {
			for _, tag := range s.Tags {
				if tag.Key != "gen_ai.operation.name" {
					continue
				}
				switch tag.Value {
				case "invoke_agent":
					roots++
				case "chat":
					chats++
				case "execute_tool":
					tools++
				}
			}
		}
		// A chat span stands for each LLM call the watch learnt of from
		// the server's stats: one per action at least, and the call the
		// server makes to title the conversation with the agent's LLM
		// (AutoTitleSubscriber, conversation_service.py) when it ended
		// before the watch's last snapshot. It runs beside the run, so
		// the server's final metrics are the upper bound, not the count.
		return roots == 1 && chats >= actions && chats <= calls && tools == actions
	})
	if !ok {
		t.Fatalf("Jaeger holds %d roots, %d chat and %d tool spans for %s; want 1, %d to %d (the LLM calls the server's metrics record: %v), %d",
			roots, chats, tools, traceID, actions, calls, perUsage, actions)
	}
}

// llmCalls counts the LLM calls the server's metrics record for
// conversation id once the run is over (one token_usages entry per call,
// per usage id).
func llmCalls(t *testing.T, id string) (int, map[string]int) {
	t.Helper()
	var doc struct {
		Stats struct {
			UsageToMetrics map[string]struct {
				TokenUsages []json.RawMessage `json:"token_usages"`
			} `json:"usage_to_metrics"`
		} `json:"stats"`
	}
	shared.get(t, "/api/conversations/"+id, &doc)
	n, per := 0, map[string]int{}
	for usage, m := range doc.Stats.UsageToMetrics {
		per[usage] = len(m.TokenUsages)
		n += len(m.TokenUsages)
	}
	return n, per
}
