package serve

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ohwatch/gen"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// benchEvents is the size of the benchmark conversation.
const benchEvents = 10_000

// benchServer serves a generated conversation of benchEvents events, all
// emitted.
func benchServer(b *testing.B) string {
	b.Helper()
	evs := testevents.Generated(b, benchEvents, 1)
	_, base := start(b, Options{}, map[string][]model.Event{convID: evs})
	waitFor(b, "the replay", func() bool { return eventCount(b, base, convID) == benchEvents })
	var size int64
	for _, ev := range evs {
		size += int64(len(ev.Raw))
	}
	b.SetBytes(size)
	return base
}

// BenchmarkSearchEventsPaging reads the whole history over REST in pages
// of 100, as a client's initial sync does.
func BenchmarkSearchEventsPaging(b *testing.B) {
	base := benchServer(b)
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		eachPage(b, eventsURL(base, convID, "/search?limit=100"), "", benchEvents/100+1, func(p page, _ string) {
			n += len(p.Items)
		})
		if n != benchEvents {
			b.Fatalf("paged %d events", n)
		}
	}
	b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkSocketResendAll subscribes with resend_mode=all and reads the
// snapshot and the whole history over a real socket.
func BenchmarkSocketResendAll(b *testing.B) {
	base := benchServer(b)
	b.ReportAllocs()
	for b.Loop() {
		c, _, err := dialRaw(base, convID, "resend_mode=all", nil)
		if err != nil {
			b.Fatal(err)
		}
		for range benchEvents + 1 {
			if _, err := c.readRaw(5e9); err != nil {
				b.Fatal(err)
			}
		}
		_ = c.conn.CloseNow()
	}
	b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}

// BenchmarkReplayToSubscribers replays a conversation at Speed 0 to ten
// live subscribers: the emit path (reducer, store, fan-out).
func BenchmarkReplayToSubscribers(b *testing.B) {
	evs := testevents.Generated(b, benchEvents, 1)
	b.ReportAllocs()
	for b.Loop() {
		c := newConversation("bench", nil, evs, &Options{}, newFaultState(Faults{}), nil)
		subs := make([]*subscriber, 10)
		for i := range subs {
			subs[i] = newSubscriber()
			c.subscribe(subs[i], resend{}, Faults{})
		}
		for i := range evs {
			if emitted, _, _ := c.emitRecorded(i); !emitted {
				b.Fatal("not emitted")
			}
		}
		if len(subs[9].take()) < benchEvents {
			b.Fatal("frames lost")
		}
	}
	b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkServeSpeed0 serves a generated 200k-event conversation with its
// base_state.json (33 MB: the full Metrics lists) at Speed 0 to one live
// client over a real socket, from POST /run to the snapshot that confirms
// the end: what `ohwatch serve --speed 0` of such a recording does. It
// reports events/s of wall time and, because the machine may be shared,
// events per second of the process's CPU time (server and client).
func BenchmarkServeSpeed0(b *testing.B) {
	const n = 200_000
	o := gen.Options{Events: n, Seed: 1}
	base, err := model.DecodeBaseState(gen.BaseState(o))
	if err != nil {
		b.Fatal(err)
	}
	evs := testevents.Generated(b, n, 1)
	last := []byte(`{"id":"` + evs[n-1].ID + `"`)
	b.ReportMetric(float64(len(base.Raw))/1e6, "MB-base")
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		cpu0 := cpuTime()
		s := New(Options{StartPaused: true})
		s.Add(convID, base, evs)
		url, err := s.Start(context.Background(), "")
		if err != nil {
			b.Fatal(err)
		}
		// The client reads each frame into one reused buffer.
		conn, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(url, "http")+"/sockets/events/"+convID, nil)
		if err != nil {
			b.Fatal(err)
		}
		conn.SetReadLimit(-1)
		var buf bytes.Buffer
		read := func() []byte {
			buf.Reset()
			_, r, err := conn.Reader(context.Background())
			if err == nil {
				_, err = buf.ReadFrom(r)
			}
			if err != nil {
				b.Fatal(err)
			}
			return buf.Bytes()
		}
		read() // execution_status=idle
		s.Run(convID)
		frames, seenLast := 0, false
		for {
			data := read()
			frames++
			if bytes.HasPrefix(data, last) {
				seenLast = true
			} else if seenLast && bytes.Contains(data, []byte(`"key":"full_state"`)) {
				break
			}
		}
		_ = conn.CloseNow()
		s.Close()
		cpu += cpuTime() - cpu0
		if frames < n {
			b.Fatalf("%d frames for %d events", frames, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	if cpu > 0 {
		// Server and client together, whatever else the machine runs.
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "events/cpu-s")
	}
}
