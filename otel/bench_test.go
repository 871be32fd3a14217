package otel

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"ohwatch/client/agentserver"
	"ohwatch/gen"
	"ohwatch/internal/benchproc"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
)

// BenchmarkExport is Export alone (spans built, encoded, written) over a
// generated 20k-event log already in memory.
func BenchmarkExport(b *testing.B) {
	log := reducer.NewLog(nil, 0)
	log.Append(testevents.Generated(b, 20000, 1)...)
	b.ReportAllocs()
	for b.Loop() {
		if err := Export(io.Discard, log, "bench", "", "v", Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*log.Len()), "ns/event")
}

// discardHandler is an OTLP/HTTP endpoint that accepts and discards.
var discardHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/x-protobuf")
})

// discardOTLP is a discarding OTLP/HTTP endpoint in this process.
func discardOTLP(b *testing.B) string {
	ts := httptest.NewServer(discardHandler)
	b.Cleanup(ts.Close)
	return ts.URL
}

// cpuTime is the CPU time (user + system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// liveRate is the ingest rate the live figure is stated for, in events a
// second, and liveGroup how many events share each liveTick of the paced
// recording: the server sleeps once a tick, not once an event, because a
// sleep of a few microseconds lasts much longer than asked.
const (
	liveRate  = 20000
	liveTick  = 10 * time.Millisecond
	liveGroup = liveRate * int(liveTick) / int(time.Second)
)

// benchServerEnv makes the test binary a paced agent-server (see
// TestMain): the live benchmark runs the server in its own process, so the
// process CPU it measures is the client's alone.
const benchServerEnv = "OHWATCH_OTEL_BENCH_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(benchServerEnv) != "" {
		os.Exit(runBenchServer())
	}
	os.Exit(m.Run())
}

// runBenchServer serves a generated 20k-event conversation, retimed so
// that it plays at liveRate (liveGroup events every liveTick), and an
// OTLP/HTTP endpoint that discards what it is sent (the tracing backend
// runs elsewhere too); it prints the conversation's URL, the id of its
// last event and the endpoint's URL, and serves until its stdin closes.
func runBenchServer() int {
	var evs []model.Event
	for raw := range gen.Events(gen.Options{Events: liveEvents, Seed: 42}) {
		ev, err := model.Decode(raw)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		evs = append(evs, ev)
	}
	t0 := time.Unix(1_700_000_000, 0).UTC()
	for i := range evs {
		evs[i].Time = t0.Add(time.Duration(i/liveGroup) * liveTick)
	}
	id := os.Getenv(benchServerEnv)
	// Only the recording's last run is confirmed finished (its end is
	// never reached: the client stops at the last event), so the
	// conversation's trace runs to the end, as the earlier runs of a
	// session whose user carries on do.
	srv := serve.New(serve.Options{Speed: 1, FinishConfirmDelay: time.Hour})
	srv.Add(id, nil, evs)
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	otlp := httptest.NewServer(discardHandler)
	fmt.Println(url, evs[len(evs)-1].ID, otlp.URL)
	io.Copy(io.Discard, os.Stdin)
	otlp.Close()
	srv.Close()
	return 0
}

// startBenchServer starts the paced server process for conversation id and
// returns its URL, the id of the last event it will send and its OTLP
// endpoint; stop ends it.
func startBenchServer(b *testing.B, id string) (url, last, otlp string, stop func()) {
	line, stop := benchproc.Start(b, benchServerEnv, id)
	f := strings.Fields(line)
	if len(f) != 3 {
		stop()
		b.Fatalf("bench server said %q", line)
	}
	return f[0], f[1], f[2], stop
}

// BenchmarkLiveIngestOTLP is the live client at a real 20k events/s: a
// generated 20k-event conversation played by a server in another process
// at liveRate, over loopback (WebSocket → decode → batched consumer →
// reducer.Log), without and with --otlp's work on each batch (fold,
// spans, queue, OTLP/HTTP export to an endpoint in the server's process
// that discards). Each iteration runs both, in alternating order, so that
// on a shared machine the two see the same load; it reports the client
// process's CPU time per event of each, what --otlp adds as a share of
// the ingest's CPU (added-%) and of one core at 20k events/s
// (added-%core), and the share of one core each used at the rate the
// server reached. CPU time, not wall time, so a loaded machine distorts
// it less.
func BenchmarkLiveIngestOTLP(b *testing.B) {
	var cpu, wall [2]time.Duration
	var sent int64
	for k := 0; b.Loop(); k++ {
		for j := range 2 {
			withOTLP := (j+k)%2 == 1
			// The runs are labelled (and the goroutines they start), so
			// that a CPU profile tells them apart:
			// go tool pprof -tagfocus 'otlp=^with$' otel.test cpu.prof
			var c, w time.Duration
			var s int64
			i, label := 0, "without"
			if withOTLP {
				i, label = 1, "with"
			}
			pprof.Do(context.Background(), pprof.Labels("otlp", label), func(context.Context) { c, w, s = ingestRun(b, k, withOTLP) })
			cpu[i] += c
			wall[i] += w
			sent += s
		}
	}
	events := float64(b.N * liveEvents)
	without, with := float64(cpu[0].Nanoseconds())/events, float64(cpu[1].Nanoseconds())/events
	b.ReportMetric(without, "cpu-ns/event-without")
	b.ReportMetric(with, "cpu-ns/event-with")
	b.ReportMetric((with-without)/without*100, "added-%")
	b.ReportMetric((with-without)*liveRate/1e9*100, "added-%core")
	b.ReportMetric(float64(cpu[0])/float64(wall[0])*100, "%cpu-without")
	b.ReportMetric(float64(cpu[1])/float64(wall[1])*100, "%cpu-with")
	b.ReportMetric(events/wall[1].Seconds(), "events/s")
	b.ReportMetric(float64(sent)/float64(b.N), "spans/run")
}

// liveEvents is the length of the live benchmark's conversation.
const liveEvents = 20000

// ingestRun plays the paced conversation once into a log, with or without
// --otlp's work, and returns the client's CPU time and wall time for it and
// the spans sent. The timer runs only while the events flow.
func ingestRun(b *testing.B, k int, withOTLP bool) (cpu, wall time.Duration, sent int64) {
	b.StopTimer()
	defer b.StartTimer()
	id := fmt.Sprintf("%032x", 0xb000+2*k)
	if withOTLP {
		id = fmt.Sprintf("%032x", 0xb000+2*k+1)
	}
	url, last, endpoint, stop := startBenchServer(b, id)
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := agentserver.New(url, "")
	if err != nil {
		b.Fatal(err)
	}
	log := reducer.NewLog(nil, 0)
	var sink *Sink
	var live *Live
	if withOTLP {
		if sink, err = NewSink(Config{Endpoint: endpoint}); err != nil {
			b.Fatal(err)
		}
		live = sink.Follow(id, log.Initial(), false)
	}
	b.StartTimer()
	start, began := cpuTime(), time.Now()
	for bt := range c.Watch(ctx, id, agentserver.WatchOptions{PingInterval: -1, CheckInterval: -1}) {
		if live != nil {
			live.Add(bt.Events) // before the consumer, as the tee does
		}
		log.Append(bt.Events...)
		// The server adds status updates of its own, as a real one
		// does: the run ends at the last recorded event, not at a count.
		if slices.ContainsFunc(bt.Events, func(ev model.Event) bool { return ev.ID == last }) {
			break
		}
	}
	if live != nil {
		live.End()
		sink.Shutdown(context.Background())
		sent = sink.Counts().Sent
		if d := sink.Counts().Dropped; d != 0 {
			b.Fatalf("%d spans dropped by a local endpoint", d)
		}
	}
	cpu, wall = cpuTime()-start, time.Since(began)
	b.StopTimer()
	return cpu, wall, sent
}

// BenchmarkLiveAdd is --otlp's own work per event, without the network
// path: fold, spans, queue and OTLP/HTTP export to a discarding endpoint
// ("http"), or the same with a client that takes the OTLP messages and
// sends nothing ("no-client"): the difference is the SDK client's share,
// the protobuf encoding and the HTTP request.
func BenchmarkLiveAdd(b *testing.B) {
	evs := testevents.Generated(b, 20000, 42)
	endpoint := discardOTLP(b)
	for _, c := range []struct {
		name   string
		client otlptrace.Client
	}{{"http", nil}, {"no-client", nopClient{}}} {
		b.Run(c.name, func(b *testing.B) {
			start := cpuTime()
			for k := 0; b.Loop(); k++ {
				sink, err := NewSink(Config{Endpoint: endpoint, Client: c.client})
				if err != nil {
					b.Fatal(err)
				}
				live := sink.Follow(fmt.Sprintf("%032x", 0xc000+k), reducer.Initial(nil, 0), false)
				for i := 0; i < len(evs); i += 200 {
					live.Add(evs[i:min(i+200, len(evs))])
				}
				live.End()
				sink.Shutdown(context.Background())
			}
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N*len(evs)), "cpu-ns/event")
		})
	}
}

// nopClient is an OTLP client that sends nothing.
type nopClient struct{}

func (nopClient) Start(context.Context) error                                  { return nil }
func (nopClient) Stop(context.Context) error                                   { return nil }
func (nopClient) UploadTraces(context.Context, []*tracepb.ResourceSpans) error { return nil }

// BenchmarkBackendDown sends a generated 100k-event conversation to an
// endpoint nothing listens on, and reports the live heap (after a GC) at
// each quarter: the queue is bounded, so it must not grow with the
// spans lost. Run it with -benchtime=1x.
func BenchmarkBackendDown(b *testing.B) {
	const n = 100000
	evs := testevents.Generated(b, n, 44)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	down := "http://" + l.Addr().String()
	l.Close()
	heap := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	for b.Loop() {
		sink, err := NewSink(Config{Endpoint: down})
		if err != nil {
			b.Fatal(err)
		}
		live := sink.Follow("0123456789abcdef0123456789abcdef", reducer.Initial(nil, 0), false)
		before := heap()
		var quarters []float64
		for i := 0; i < n; i += 500 {
			live.Add(evs[i:min(i+500, n)])
			if (i+500)%(n/4) == 0 {
				quarters = append(quarters, heap())
			}
		}
		live.End()
		sink.Shutdown(context.Background())
		c := sink.Counts()
		b.Logf("heap %.0f MB before; %.0f / %.0f / %.0f / %.0f MB at each quarter; %d spans ended, %d sent, %d dropped",
			before, quarters[0], quarters[1], quarters[2], quarters[3], c.Ended, c.Sent, c.Dropped)
		b.ReportMetric(quarters[3]-before, "MB-growth")
	}
}
