package otel

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// fakeClient is an OTLP client that records the size of each batch it
// is sent; with block it waits for its context instead (a backend that
// never answers).
type fakeClient struct {
	mu      sync.Mutex
	batches []int
	block   bool
}

func (f *fakeClient) UploadTraces(ctx context.Context, rs []*tracepb.ResourceSpans) error {
	if f.block {
		<-ctx.Done()
		return ctx.Err()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.batches = append(f.batches, len(rs[0].ScopeSpans[0].Spans))
	return nil
}

func (f *fakeClient) Start(context.Context) error { return nil }
func (f *fakeClient) Stop(context.Context) error  { return nil }

func (f *fakeClient) sent() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int(nil), f.batches...)
}

func endSpans(q *queue, n int) {
	for range n {
		q.add([]*span{{name: "s"}})
	}
}

// TestQueueBatchesBySizeAndTime: a full batch goes at once, a partial one
// after the flush interval.
func TestQueueBatchesBySizeAndTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exp := &fakeClient{}
		q := newQueue(exp, newConverter("", ""), 100, 10, time.Second)
		endSpans(q, 13)
		synctest.Wait()
		if got := exp.sent(); len(got) != 1 || got[0] != 10 {
			t.Fatalf("before the interval: batches %v, want [10]", got)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if got := exp.sent(); len(got) != 2 || got[1] != 3 {
			t.Fatalf("after the interval: batches %v, want [10 3]", got)
		}
		if err := q.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		if c := q.counts(); c.Ended != 13 || c.Sent != 13 || c.Dropped != 0 {
			t.Fatalf("counts %+v", c)
		}
	})
}

// TestQueueBackendDown: a backend that never answers neither blocks add
// nor holds more than the queue; every span is counted sent or dropped,
// and Shutdown returns by its deadline.
func TestQueueBackendDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exp := &fakeClient{block: true}
		q := newQueue(exp, newConverter("", ""), 50, 10, time.Second)
		endSpans(q, 1000) // returns at once: add never waits
		synctest.Wait()
		if c := q.counts(); c.Dropped < 1000-50-10 {
			t.Fatalf("only %d dropped with a queue of 50: %+v", c.Dropped, c)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		_ = q.Shutdown(ctx)
		if waited := time.Since(start); waited > 2*time.Second {
			t.Fatalf("Shutdown waited %v past its deadline", waited)
		}
		if c := q.counts(); c.Ended != 1000 || c.Sent+c.Dropped != 1000 || c.Sent != 0 {
			t.Fatalf("counts %+v", c)
		}
		endSpans(q, 5) // after shutdown: dropped, not blocked
		if c := q.counts(); c.Dropped != 1005 {
			t.Fatalf("after shutdown: %+v", c)
		}
	})
}

// TestQueueTakesWhatFitsOfAChunk: a Live's chunk of spans is queued as far
// as the bound allows; the rest is counted dropped, and nothing blocks.
func TestQueueTakesWhatFitsOfAChunk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		chunk := func(n int) []*span {
			out := make([]*span, n)
			for i := range out {
				out[i] = &span{name: "s"}
			}
			return out
		}
		q := newQueue(&fakeClient{block: true}, newConverter("", ""), 5, 1, time.Second)
		q.add(chunk(1)) // taken at once; its export never returns
		synctest.Wait()
		q.add(chunk(3))
		q.add(chunk(4)) // two fit
		if c := q.counts(); c.Ended != 8 || c.Dropped != 2 {
			t.Fatalf("counts %+v, want 8 ended and 2 dropped", c)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = q.Shutdown(ctx)
		if c := q.counts(); c.Sent != 0 || c.Dropped != 8 {
			t.Fatalf("after shutdown: %+v", c)
		}
	})
}
