package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ohwatch/client/files"
	"ohwatch/gen"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/otel"
)

// jaegerConfig is a minimal Jaeger v2 all-in-one: OTLP in, memory storage,
// the query API, on the ports given in the environment.
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
      grpc:
        endpoint: 127.0.0.1:${env:JQ_OTLP_GRPC}
      http:
        endpoint: 127.0.0.1:${env:JQ_OTLP_HTTP}
processors:
  batch:
    timeout: 50ms
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`

// jaeger is a running Jaeger all-in-one.
type jaeger struct {
	query, otlpHTTP, otlpGRPC string // base URLs
}

// startJaeger starts the binary named by OHWATCH_JAEGER (.ci/run builds it
// from tools/jaeger). Outside CI a missing binary skips the test; in CI it
// fails it.
func startJaeger(t *testing.T) *jaeger {
	t.Helper()
	bin := os.Getenv("OHWATCH_JAEGER")
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("OHWATCH_JAEGER is not set: .ci/run builds Jaeger from tools/jaeger and sets it")
		}
		t.Skip("no Jaeger binary: set OHWATCH_JAEGER to a Jaeger all-in-one (cd tools/jaeger && go build -o /tmp/jaeger github.com/jaegertracing/jaeger/cmd/jaeger)")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfg, []byte(jaegerConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	ports := freePorts(t, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--config=file:"+cfg)
	cmd.Env = append(os.Environ(), "JQ_HTTP="+ports[0], "JQ_GRPC="+ports[1], "JQ_OTLP_GRPC="+ports[2], "JQ_OTLP_HTTP="+ports[3])
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
	j := &jaeger{query: "http://127.0.0.1:" + ports[0], otlpHTTP: "http://127.0.0.1:" + ports[3], otlpGRPC: "http://127.0.0.1:" + ports[2]}
	// Wait for the query API and the OTLP receiver to accept connections.
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(j.query + "/api/services")
		if err == nil {
			resp.Body.Close()
			if c, err := net.Dial("tcp", "127.0.0.1:"+ports[3]); err == nil {
				c.Close()
				return j
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger did not come up in 60s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePorts(t *testing.T, n int) []string {
	t.Helper()
	var ports []string
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// jaegerSpan is a span as Jaeger's query API returns it.
type jaegerSpan struct {
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	Tags          []struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	} `json:"tags"`
}

func (s jaegerSpan) tag(k string) (any, bool) {
	for _, t := range s.Tags {
		if t.Key == k {
			return t.Value, true
		}
	}
	return nil, false
}

func (s jaegerSpan) op() string {
	v, _ := s.tag("gen_ai.operation.name")
	str, _ := v.(string)
	return str
}

// traces returns the traces Jaeger holds with this id, once as many
// spans as want have arrived (or after a while, whatever it has).
func (j *jaeger) traces(t *testing.T, traceID string, want int) [][]jaegerSpan {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var doc struct {
			Data []struct {
				TraceID string       `json:"traceID"`
				Spans   []jaegerSpan `json:"spans"`
			} `json:"data"`
		}
		resp, err := http.Get(j.query + "/api/traces/" + traceID)
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&doc)
			resp.Body.Close()
		}
		var out [][]jaegerSpan
		n := 0
		for _, tr := range doc.Data {
			out = append(out, tr.Spans)
			n += len(tr.Spans)
		}
		if (err == nil && n >= want) || time.Now().After(deadline) {
			return out
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// postOTLPJSON sends every line of an OTLP/JSON file to the OTLP/HTTP
// receiver, as a collector's otlpjsonfile receiver would read it.
func (j *jaeger) postOTLPJSON(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	lines := 0
	for sc.Scan() {
		resp, err := http.Post(j.otlpHTTP+"/v1/traces", "application/json", bytes.NewReader(sc.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		body := new(bytes.Buffer)
		body.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || strings.Contains(body.String(), "rejected") {
			t.Fatalf("OTLP/HTTP answered %s: %s", resp.Status, body)
		}
		lines++
	}
	if lines == 0 {
		t.Fatal("the export has no line")
	}
}

// settle returns once Jaeger has stored what was posted before it: it
// posts a one-span marker trace of its own and waits until the query API
// finds it. The receiver, the batch processor and the memory store keep
// the order spans came in, so what came before the marker is stored by
// then (a fixed pause would only guess at the batch timeout).
func (j *jaeger) settle(t *testing.T, n int) {
	t.Helper()
	traceID := fmt.Sprintf("%032x", 0xfeed0000+n)
	line := fmt.Sprintf(`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"settle"}}]},"scopeSpans":[{"scope":{"name":"settle"},"spans":[{"traceId":%q,"spanId":"00000000000000%02x","name":"settle","kind":1,"startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000000000000001"}]}]}]}`, traceID, n%256+1)
	resp, err := http.Post(j.otlpHTTP+"/v1/traces", "application/json", strings.NewReader(line))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("OTLP/HTTP answered %s to the marker", resp.Status)
	}
	if trs := j.traces(t, traceID, 1); len(trs) != 1 || len(trs[0]) != 1 {
		t.Fatalf("the marker trace %s never came out of Jaeger: %d traces", traceID, len(trs))
	}
}

// expected are a recording's figures, from `state --json` and its events.
type expected struct {
	calls, actions, errorObservations int
	prompt, completion, cacheRead     int64
}

func expect(t *testing.T, dir string) expected {
	t.Helper()
	code, out, errs := runCmd(t, nil, "state", dir, "--json")
	if code != 0 {
		t.Fatalf("state: %d %s", code, errs)
	}
	var doc struct {
		Metrics struct {
			Prompt     int64 `json:"prompt_tokens"`
			Completion int64 `json:"completion_tokens"`
			CacheRead  int64 `json:"cache_read_tokens"`
			Calls      int   `json:"llm_calls"`
		} `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	e := expected{calls: doc.Metrics.Calls, prompt: doc.Metrics.Prompt, completion: doc.Metrics.Completion, cacheRead: doc.Metrics.CacheRead}
	conv, err := files.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range conv.Events {
		switch b := ev.Body.(type) {
		case *model.Action:
			e.actions++
		case *model.Observation:
			if b.IsError {
				e.errorObservations++
			}
		case *model.AgentError:
			if b.ToolCallID != "" {
				e.errorObservations++
			}
		}
	}
	if e.calls == 0 || e.actions == 0 || e.errorObservations == 0 {
		t.Fatalf("the recording lacks what the test checks: %+v", e)
	}
	return e
}

// checkTrace checks the one trace Jaeger holds for the conversation.
func checkTrace(t *testing.T, j *jaeger, traceID string, e expected) {
	t.Helper()
	want := 1 + e.calls + e.actions
	trs := j.traces(t, traceID, want)
	if len(trs) != 1 {
		t.Fatalf("%d traces with id %s, want 1", len(trs), traceID)
	}
	seen := map[string]bool{}
	var roots, chats, tools, errorTools int
	var prompt, completion, cacheRead int64
	num := func(s jaegerSpan, k string) int64 {
		v, _ := s.tag(k)
		f, _ := v.(float64)
		return int64(f)
	}
	for _, s := range trs[0] {
		if seen[s.SpanID] {
			t.Fatalf("span %s (%s) is stored twice", s.SpanID, s.OperationName)
		}
		seen[s.SpanID] = true
		switch s.op() {
		case "invoke_agent":
			roots++
		case "chat":
			chats++
			prompt += num(s, "gen_ai.usage.input_tokens")
			completion += num(s, "gen_ai.usage.output_tokens")
			cacheRead += num(s, "gen_ai.usage.cache_read.input_tokens")
		case "execute_tool":
			tools++
			if v, _ := s.tag("error"); v == true {
				errorTools++
			}
		}
	}
	if roots != 1 || chats != e.calls || tools != e.actions {
		t.Errorf("%d roots, %d chat spans, %d tool spans; want 1, %d LLM calls, %d actions", roots, chats, tools, e.calls, e.actions)
	}
	if prompt != e.prompt || completion != e.completion || cacheRead != e.cacheRead {
		t.Errorf("tokens in Jaeger %d/%d/%d, state --json %d/%d/%d", prompt, completion, cacheRead, e.prompt, e.completion, e.cacheRead)
	}
	if errorTools != e.errorObservations {
		t.Errorf("%d error tool spans, %d error observations", errorTools, e.errorObservations)
	}
}

// TestJaegerEndToEnd: a recording exported as OTLP/JSON, and live runs
// (serve → watch --otlp, over OTLP/HTTP and gRPC), land in a real Jaeger
// exactly: one trace, a span per LLM call and per tool call, the tokens
// of state --json, the error observations as error spans, and no
// duplicate when the same conversation is sent again.
func TestJaegerEndToEnd(t *testing.T) {
	j := startJaeger(t)
	root := t.TempDir()

	t.Run("export", func(t *testing.T) {
		dir := filepath.Join(root, "exported")
		if err := gen.WriteDir(dir, gen.Options{Events: 800, Seed: 11}); err != nil {
			t.Fatal(err)
		}
		e := expect(t, dir)
		file := filepath.Join(root, "exported.otlp.json")
		if code, _, errs := runCmd(t, nil, "export", dir, "--format", "otlp", "-o", file); code != 0 {
			t.Fatalf("export: %d %s", code, errs)
		}
		conv, _ := files.Load(dir)
		key := conv.ID
		if key == "" {
			key = filepath.Base(dir)
		}
		id := otel.TraceID(key).String()
		j.postOTLPJSON(t, file)
		checkTrace(t, j, id, e)
		// A second export of the same conversation is the same trace.
		if code, _, errs := runCmd(t, nil, "export", dir, "--format", "otlp", "-o", file); code != 0 {
			t.Fatalf("export: %d %s", code, errs)
		}
		j.postOTLPJSON(t, file)
		j.settle(t, 1)
		checkTrace(t, j, id, e)
	})

	for k, protocol := range []string{otel.ProtocolHTTP, otel.ProtocolGRPC} {
		t.Run("live-"+strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			dir := filepath.Join(root, "live-"+strconv.Itoa(k))
			if err := gen.WriteDir(dir, gen.Options{Events: 800, Seed: int64(21 + k)}); err != nil {
				t.Fatal(err)
			}
			e := expect(t, dir)
			conv, err := files.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			id := conv.ID // the recording's own id: a replay of it is the same trace
			url := serveOne(t, id, conv)
			endpoint := j.otlpHTTP
			if protocol == otel.ProtocolGRPC {
				endpoint = j.otlpGRPC
			}
			env := map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": protocol, "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}
			code, out, errs := runCmd(t, env, "watch", url, "--conversation", id, "--headless", "--otlp", "--watch-timeout", "60s")
			if code != headless.ExitFinished || !strings.Contains(errs, ", 0 dropped") {
				t.Fatalf("watch: exit %d\n%s\n%s", code, errs, out[max(0, len(out)-500):])
			}
			checkTrace(t, j, otel.TraceID(id).String(), e)
			// The recording exported after the live watch adds nothing.
			file := filepath.Join(root, "live.otlp.json")
			if code, _, errs := runCmd(t, nil, "export", dir, "--format", "otlp", "-o", file); code != 0 {
				t.Fatalf("export: %d %s", code, errs)
			}
			j.postOTLPJSON(t, file)
			j.settle(t, 2+k)
			checkTrace(t, j, otel.TraceID(id).String(), e)
		})
	}
}
