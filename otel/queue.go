package otel

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
)

// Defaults of the live queue. A span is a few hundred bytes to a few KiB,
// so a full queue holds a few MB at most, whatever the backend does.
const (
	DefaultQueueSize  = 4096
	DefaultBatchSize  = 512
	DefaultFlushEvery = time.Second
)

// Counts are what happened to the spans of a live sink so far.
type Counts struct {
	Ended   int64 // spans handed to the queue
	Sent    int64 // accepted by the backend
	Dropped int64 // lost: the queue was full, an export failed, or shutdown came first
}

// queue takes the ended spans of a live sink: add never blocks (the watch
// must not slow down for a slow or absent backend), spans wait in a
// bounded queue, one goroutine turns them into OTLP in batches and has the
// SDK's OTLP client send them, and every span that does not make it is
// counted. The client retries with backoff within its own timeout. Spans
// come in the chunks a Live makes of each batch of events, so that the
// sending goroutine is woken once a batch, not once a span.
type queue struct {
	client     otlptrace.Client
	conv       *converter
	ch         chan []*span
	size       int64        // the most spans ch holds
	queued     atomic.Int64 // spans in ch
	batchSize  int
	flushEvery time.Duration

	ended, sent, dropped atomic.Int64
	lastFailed           atomic.Bool

	closeOnce sync.Once
	closed    chan struct{} // closed by Shutdown: drain and stop
	exportCtx context.Context
	cancel    context.CancelFunc // cancels an export still running at the deadline
	done      chan struct{}

	mu       sync.Mutex // guards stopping against sends on ch
	stopping bool
}

func newQueue(client otlptrace.Client, conv *converter, size, batch int, every time.Duration) *queue {
	ctx, cancel := context.WithCancel(context.Background())
	q := &queue{
		client: client, conv: conv, ch: make(chan []*span, size), size: int64(size), batchSize: batch, flushEvery: every,
		closed: make(chan struct{}), exportCtx: ctx, cancel: cancel, done: make(chan struct{}),
	}
	go q.loop()
	return q
}

// add queues ended spans, taking the slice; those that do not fit are
// counted dropped.
func (q *queue) add(spans []*span) {
	if len(spans) == 0 {
		return
	}
	q.ended.Add(int64(len(spans)))
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopping {
		q.drop(spans)
		return
	}
	if room := int(max(0, q.size-q.queued.Load())); room < len(spans) {
		q.drop(spans[room:])
		spans = spans[:room]
		if room == 0 {
			return
		}
	}
	q.queued.Add(int64(len(spans)))
	select {
	case q.ch <- spans:
	default: // more chunks than spans: cannot happen, but never block
		q.queued.Add(-int64(len(spans)))
		q.drop(spans)
	}
}

// drop counts spans lost and pools them.
func (q *queue) drop(spans []*span) {
	q.dropped.Add(int64(len(spans)))
	for _, s := range spans {
		s.recycle()
	}
}

func (q *queue) counts() Counts {
	return Counts{Ended: q.ended.Load(), Sent: q.sent.Load(), Dropped: q.dropped.Load()}
}

// loop sends a batch when it is full or when flushEvery has passed since
// its first span, and drains the queue once Shutdown closes it.
func (q *queue) loop() {
	defer close(q.done)
	batch := make([]*span, 0, q.batchSize)
	timer := time.NewTimer(q.flushEvery)
	timer.Stop()
	send := func() {
		if len(batch) == 0 {
			return
		}
		if err := q.client.UploadTraces(q.exportCtx, q.conv.convert(batch)); err != nil {
			q.dropped.Add(int64(len(batch)))
			q.lastFailed.Store(true)
		} else {
			q.sent.Add(int64(len(batch)))
			q.lastFailed.Store(false)
		}
		for _, s := range batch { // sent, or lost: the client keeps nothing
			s.recycle()
		}
		clear(batch)
		batch = batch[:0]
	}
	for {
		select {
		case chunk := <-q.ch:
			q.queued.Add(-int64(len(chunk)))
			for _, s := range chunk {
				if len(batch) == 0 {
					timer.Reset(q.flushEvery)
				}
				batch = append(batch, s)
				if len(batch) >= q.batchSize {
					timer.Stop()
					send()
				}
			}
		case <-timer.C:
			send()
		case <-q.closed:
			timer.Stop()
			for {
				select {
				case chunk := <-q.ch:
					q.queued.Add(-int64(len(chunk)))
					for _, s := range chunk {
						batch = append(batch, s)
						if len(batch) >= q.batchSize {
							send()
						}
					}
				default:
					send()
					return
				}
			}
		}
	}
}

// Shutdown sends what is queued, until ctx is done: then an export still
// running is cancelled and the spans not sent are counted dropped. When
// the last export failed (the backend is down), the wait is short: the
// watch must not hang on its way out for a backend that is not there.
func (q *queue) Shutdown(ctx context.Context) error {
	q.closeOnce.Do(func() {
		q.mu.Lock()
		q.stopping = true
		q.mu.Unlock()
		close(q.closed)
	})
	if q.lastFailed.Load() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, downGrace)
		defer cancel()
	}
	select {
	case <-q.done:
	case <-ctx.Done():
		q.cancel()
		<-q.done
	}
	q.cancel()
	// Whatever is still queued was not sent.
	for {
		select {
		case chunk := <-q.ch:
			q.queued.Add(-int64(len(chunk)))
			q.drop(chunk)
		default:
			return q.client.Stop(context.WithoutCancel(ctx))
		}
	}
}

// downGrace is how long Shutdown waits when the backend was down.
const downGrace = 300 * time.Millisecond
