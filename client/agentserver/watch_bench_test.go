package agentserver

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
)

// ingest watches a conversation served by serve from the moment its
// clock starts until n recorded events have arrived, feeding every batch to
// fn, and returns how long the stream took.
func ingest(b *testing.B, evs []model.Event, legacy bool, fn func(model.Batch)) time.Duration {
	b.Helper()
	id := fmt.Sprintf("%032x", len(evs))
	s, c := startServe(b, serve.Options{StartPaused: true}, id, nil, evs)
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := c.Watch(ctx, id, WatchOptions{PingInterval: -1, CheckInterval: -1, LegacySocket: legacy})
	for bt := range ch {
		fn(bt)
		if bt.Conn != nil && bt.Conn.Phase == model.PhaseLive {
			break
		}
	}
	start := time.Now()
	s.Run(id)
	got := 0
	for bt := range ch {
		fn(bt)
		for _, ev := range bt.Events {
			if model.Persisted(ev) {
				got++
			}
		}
		if got >= len(evs) {
			break
		}
	}
	return time.Since(start)
}

// BenchmarkLiveIngest is the whole live path over loopback: serve emits
// generated events at full speed → WebSocket → decode → dedupe → batched
// consumer → reducer.Log. events/s is end to end, so it includes the
// server's own emit cost. It runs over the session socket (serve offers
// it, as upstream 1.45+ does) and over the legacy /sockets/events.
func BenchmarkLiveIngest(b *testing.B) {
	b.Run("session", func(b *testing.B) { liveIngest(b, false) })
	b.Run("legacy", func(b *testing.B) { liveIngest(b, true) })
}

func liveIngest(b *testing.B, legacy bool) {
	const n = 20000
	evs := testevents.Generated(b, n, 42)
	b.ReportAllocs()
	var total time.Duration
	batches := 0
	for b.Loop() {
		log := reducer.NewLog(nil, 0)
		total += ingest(b, evs, legacy, func(bt model.Batch) {
			batches++
			log.Append(bt.Events...)
		})
		if log.Len() < n {
			b.Fatalf("log has %d events", log.Len())
		}
	}
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "events/s")
	b.ReportMetric(float64(n*b.N)/float64(batches), "events/batch")
}

// BenchmarkIngestMemory200k streams 200k generated events through a watch
// whose consumer keeps nothing, and reports the live heap (after a GC)
// before the stream and at each quarter: the client's own footprint must
// stay flat apart from its id set. Run it with -benchtime=1x.
func BenchmarkIngestMemory200k(b *testing.B) {
	const n = 200000
	evs := testevents.Generated(b, n, 43)
	heapMB := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	for b.Loop() {
		before := heapMB()
		quarters := make([]float64, 0, 4)
		seen := 0
		elapsed := ingest(b, evs, false, func(bt model.Batch) {
			prev := seen
			seen += len(bt.Events)
			if len(quarters) < 3 && prev/(n/4) != seen/(n/4) {
				quarters = append(quarters, heapMB())
			}
		})
		quarters = append(quarters, heapMB())
		b.ReportMetric(before, "heap-before-MB")
		for i, q := range quarters {
			b.ReportMetric(q, fmt.Sprintf("heap-q%d-MB", i+1))
		}
		b.ReportMetric(float64(n)/elapsed.Seconds(), "events/s")
	}
}

// BenchmarkReconnectToLive measures, on loopback, the time from a dropped
// connection to the watch being live again (the backoff is 1 ms).
func BenchmarkReconnectToLive(b *testing.B) {
	f := newFakeServer(b, "k")
	defer f.srv.Close()
	f.persist(100)
	c, err := New(f.srv.URL, "k")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := fastWatch()
	ch := c.Watch(ctx, f.id, opts)
	waitLive := func() {
		for bt := range ch {
			if bt.Conn != nil && bt.Conn.Phase == model.PhaseLive {
				return
			}
			if bt.Conn != nil && bt.Conn.Final {
				b.Fatalf("watch ended: %+v", bt.Conn)
			}
		}
	}
	waitLive()
	for b.Loop() {
		f.emit(1)
		f.dropAll()
		waitLive()
	}
}
