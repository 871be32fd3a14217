package otel

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"syscall"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/serve"
	"ohwatch/internal/testevents"
	"ohwatch/reducer"
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

// discardOTLP is an OTLP/HTTP endpoint that accepts and discards.
func discardOTLP(b *testing.B) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
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

// BenchmarkLiveIngestOTLP is the live path over loopback (serve →
// WebSocket → decode → batched consumer → reducer.Log), without and with
// --otlp's work on each batch (fold, spans, queue, OTLP/HTTP export to a
// local endpoint that discards). It reports the process's CPU time per
// event: the difference is what --otlp adds. CPU time, not wall time, so
// a loaded machine does not distort it; the server's emit cost is in both.
func BenchmarkLiveIngestOTLP(b *testing.B) {
	const n = 20000
	evs := testevents.Generated(b, n, 42)
	endpoint := discardOTLP(b)
	for _, withOTLP := range []bool{false, true} {
		name := "without"
		if withOTLP {
			name = "with"
		}
		b.Run(name, func(b *testing.B) {
			var cpu time.Duration
			var sent int64
			for k := 0; b.Loop(); k++ {
				id := fmt.Sprintf("%032x", 0xb000+k)
				srv := serve.New(serve.Options{Speed: 0, FinishConfirmDelay: 1})
				srv.Add(id, nil, evs)
				ctx, cancel := context.WithCancel(context.Background())
				url, err := srv.Start(ctx, "127.0.0.1:0")
				if err != nil {
					b.Fatal(err)
				}
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
				start := cpuTime()
				for bt := range c.Watch(ctx, id, agentserver.WatchOptions{PingInterval: -1, CheckInterval: -1}) {
					log.Append(bt.Events...)
					if live != nil {
						live.Add(bt.Events)
					}
					if log.Len() >= n {
						break
					}
				}
				if live != nil {
					live.End()
					sink.Shutdown(context.Background())
					sent += sink.Counts().Sent
					if d := sink.Counts().Dropped; d != 0 {
						b.Fatalf("%d spans dropped by a local endpoint", d)
					}
				}
				cpu += cpuTime() - start
				cancel()
				srv.Close()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/event")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n)*20000/1e9*100, "%cpu@20k/s")
			if withOTLP {
				b.ReportMetric(float64(sent)/float64(b.N), "spans/run")
			}
		})
	}
}

// BenchmarkLiveAdd is --otlp's own work per event, without the network
// path: fold, spans, queue and OTLP/HTTP export to a discarding endpoint.
func BenchmarkLiveAdd(b *testing.B) {
	evs := testevents.Generated(b, 20000, 42)
	endpoint := discardOTLP(b)
	start := cpuTime()
	for k := 0; b.Loop(); k++ {
		sink, err := NewSink(Config{Endpoint: endpoint})
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
}

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
