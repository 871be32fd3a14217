package session

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"ohwatch/internal/teacmds"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	convui "ohwatch/tui/conversation"
)

// frameBatch is how many events a batch of the frame tests carries, and
// framePace how often the benchmark's source sends one: 20k events/s.
const (
	frameBatch = 400
	framePace  = 20 * time.Millisecond
)

// discardEndpoint is an OTLP/HTTP endpoint that counts the requests it
// accepts and discards them.
func discardEndpoint(tb testing.TB) (url string, requests *atomic.Int64) {
	requests = new(atomic.Int64)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		requests.Add(1)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	tb.Cleanup(ts.Close)
	return ts.URL, requests
}

// feedOf plays events as batches of frameBatch on a new feed, one every
// pace (as fast as they are taken when pace is 0).
func feedOf(evs []model.Event, pace time.Duration) <-chan model.Batch {
	feed := make(chan model.Batch, 4)
	go func() {
		defer close(feed)
		var tick <-chan time.Time
		if pace > 0 {
			t := time.NewTicker(pace)
			defer t.Stop()
			tick = t.C
		}
		for i := 0; i < len(evs); i += frameBatch {
			if tick != nil {
				<-tick
			}
			feed <- model.Batch{Events: evs[i:min(i+frameBatch, len(evs))]}
		}
	}()
	return feed
}

// TestOTLPTeeLeavesTheTUIsBatchesAlone: what --otlp puts between the source
// and the TUI hands on every batch as it came (the same events, not a
// copy, in order, nothing added while no span is lost) and never touches
// the log: Update, which appends each batch to the log, does exactly the
// work it does without --otlp. The spans are built on the tee's own
// goroutine before it hands the batch on, and sent from the sink's.
func TestOTLPTeeLeavesTheTUIsBatchesAlone(t *testing.T) {
	t.Parallel()
	evs := testevents.Generated(t, 5000, 5)
	url, requests := discardEndpoint(t)
	var stderr bytes.Buffer // written by finish, on this goroutine
	env := &Env{Stdout: io.Discard, Stderr: &stderr, Getenv: func(string) string { return "" }}
	s := conversation{log: reducer.NewLog(nil, 0), feed: feedOf(evs, 0), traceID: "0123456789abcdef0123456789abcdef"}
	finish, ok := teeOTLP(context.Background(), env, OTLP{On: true, Endpoint: url}, &s, true)
	if !ok {
		t.Fatal("teeOTLP refused a good endpoint")
	}
	i := 0
	for b := range s.feed {
		if b.Conn != nil || b.Progress != nil || len(b.Warnings) != 0 {
			t.Fatalf("batch %d: the tee added %+v", i, b)
		}
		want := evs[i*frameBatch : min((i+1)*frameBatch, len(evs))]
		if len(b.Events) != len(want) || &b.Events[0] != &want[0] {
			t.Fatalf("batch %d: %d events, not the source's %d", i, len(b.Events), len(want))
		}
		i++
	}
	if want := (len(evs) + frameBatch - 1) / frameBatch; i != want {
		t.Fatalf("%d batches handed on, want %d", i, want)
	}
	if n := s.log.Len(); n != 0 {
		t.Fatalf("the tee appended %d events to the log: that is the consumer's work", n)
	}
	finish()
	if requests.Load() == 0 {
		t.Fatalf("no spans reached the endpoint; stderr %q", stderr.String())
	}
}

// BenchmarkOTLPFrame is the TUI's side of a live watch at 20k events/s,
// without and with --otlp: a generated 20k-event conversation arrives in
// batches of frameBatch every framePace and the real model takes each
// (Update appends it to the log, View draws the 160x48 screen), as Bubble
// Tea runs it. It reports the wall time spent in Update and View per
// message, mean and median (which other processes on a loaded machine
// disturb less): --otlp must add nothing to it.
func BenchmarkOTLPFrame(b *testing.B) {
	evs := testevents.Generated(b, 20000, 42)
	url, _ := discardEndpoint(b)
	env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	for _, withOTLP := range []bool{false, true} {
		name := "without"
		if withOTLP {
			name = "with"
		}
		b.Run(name, func(b *testing.B) {
			var inModel time.Duration
			var times []time.Duration
			frames := 0
			for k := 0; b.Loop(); k++ {
				s := conversation{log: reducer.NewLog(nil, 0), feed: feedOf(evs, framePace), traceID: fmt.Sprintf("%032x", 0xf000+k)}
				finish := func() {}
				if withOTLP {
					var ok bool
					if finish, ok = teeOTLP(context.Background(), env, OTLP{On: true, Endpoint: url}, &s, true); !ok {
						b.Fatal("teeOTLP refused a good endpoint")
					}
				}
				var m tea.Model = convui.New(convui.Options{Title: "bench", Source: "bench", Log: s.log, Feed: s.feed, Live: true, NoColor: true})
				msgs := make(chan tea.Msg, 64)
				teacmds.Run(m.Init(), msgs)
				m, cmd := m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
				teacmds.Run(cmd, msgs)
				for s.log.Len() < len(evs) {
					msg := <-msgs
					start := time.Now()
					m, cmd = m.Update(msg)
					_ = m.View()
					d := time.Since(start)
					inModel += d
					times = append(times, d)
					frames++
					teacmds.Run(cmd, msgs)
				}
				finish()
			}
			slices.Sort(times)
			b.ReportMetric(float64(inModel.Nanoseconds())/float64(frames), "ns/frame")
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns/frame")
		})
	}
}
