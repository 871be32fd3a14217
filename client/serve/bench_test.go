package serve

import (
	"testing"

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
