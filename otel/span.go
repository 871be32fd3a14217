package otel

import (
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// span is one span as the builder makes it: the ids it chose, the events'
// own times, and the attributes in the order they were set. It is what
// the SDK's recording span would hold, without what a span made by an
// instrumented program needs and a trace rebuilt from events does not (a
// lock, a tracer, a clock, sampling, id generation, a snapshot copy at
// its end): the OTLP messages are made straight from it, by convert.go,
// only once it has ended. It follows the SDK's rules where they show in
// the output: a key set again keeps its place and takes the new value,
// the status never goes back from error to unset, an ended span changes
// no more, and past eventLimit events the oldest are dropped and counted.
type span struct {
	traceID       trace.TraceID
	id, parent    trace.SpanID // parent is zero for a root
	name          string
	kind          trace.SpanKind
	start, end    time.Time
	attrs         []attribute.KeyValue
	events        []spanEvent
	droppedEvents int
	status        codes.Code
	statusMsg     string
	ended         bool
}

// spanEvent is a span event: a status change, an exception, a rejection.
type spanEvent struct {
	name  string
	at    time.Time
	attrs []attribute.KeyValue
}

// eventLimit is how many events a span keeps: raised from the SDK's
// default of 128 so that a long turn keeps all of its status changes.
const eventLimit = 1024

// set sets attributes, replacing the value of a key already set.
func (s *span) set(kvs ...attribute.KeyValue) {
	if s.ended {
		return
	}
next:
	for _, kv := range kvs {
		for i := range s.attrs {
			if s.attrs[i].Key == kv.Key {
				s.attrs[i] = kv
				continue next
			}
		}
		s.attrs = append(s.attrs, kv)
	}
}

// event adds a span event at a time.
func (s *span) event(name string, at time.Time, kvs ...attribute.KeyValue) {
	if s.ended {
		return
	}
	if len(s.events) == eventLimit {
		copy(s.events, s.events[1:])
		s.events = s.events[:eventLimit-1]
		s.droppedEvents++
	}
	s.events = append(s.events, spanEvent{name: name, at: at, attrs: kvs})
}

// fail sets the span's status to error with a message.
func (s *span) fail(msg string) {
	if s.ended {
		return
	}
	s.status, s.statusMsg = codes.Error, msg
}

// spanPool holds spans a live sink has sent, for the builder to fill
// again: a span and its attribute slice are most of what a span costs to
// allocate, and a watch makes thousands a second. Export and the tests
// never give theirs back, and simply get new ones.
var spanPool = sync.Pool{New: func() any { return &span{attrs: make([]attribute.KeyValue, 0, maxAttrs)} }}

// maxAttrs is the most attributes a span is made with (a tool span with
// its content); more still fit, in a slice that grows.
const maxAttrs = 12

// recycle empties a span that nothing refers to any more and pools it.
func (s *span) recycle() {
	clear(s.attrs)
	clear(s.events)
	*s = span{attrs: s.attrs[:0], events: s.events[:0]}
	spanPool.Put(s)
}
