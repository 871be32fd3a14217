package otel

import (
	"sync"

	"github.com/go-logr/logr"
	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// DefaultServiceName is service.name when OTEL_SERVICE_NAME is unset.
const DefaultServiceName = "ohwatch"

// scopeName is the instrumentation scope of every span.
const scopeName = "ohwatch/otel"

// converter turns ended spans into the OTLP messages the SDK's exporters
// send (the otlptracehttp and otlptracegrpc clients marshal and send them)
// and Export encodes as JSON. The messages are exactly what the SDK's own
// transformation makes of its spans (TestConvertIsTheSDKs holds it to
// that), but they live in slabs that the next batch reuses, so a batch
// costs a handful of allocations rather than a few per attribute: what a
// convert returns is valid until the next convert. A converter is not safe
// for concurrent use: each export goroutine has its own.
type converter struct {
	rs  tracepb.ResourceSpans
	ss  tracepb.ScopeSpans
	out []*tracepb.ResourceSpans

	spans     []tracepb.Span
	spanPtrs  []*tracepb.Span
	statuses  []tracepb.Status
	events    []tracepb.Span_Event
	eventPtrs []*tracepb.Span_Event
	kvs       []commonpb.KeyValue
	kvPtrs    []*commonpb.KeyValue
	vals      []commonpb.AnyValue
	strs      []commonpb.AnyValue_StringValue
	ints      []commonpb.AnyValue_IntValue
	doubles   []commonpb.AnyValue_DoubleValue
	bools     []commonpb.AnyValue_BoolValue
	ids       []byte
	nkv, nev  int // slab positions while converting
}

// newConverter returns a converter whose spans come from the resource of
// a service (only its name and version and the SDK's attributes, so the
// same conversation exported twice gives identical spans) and ohwatch's
// instrumentation scope. Attributes sorted by key, as the SDK's resource
// holds them.
func newConverter(serviceName, version string) *converter {
	quietOnce.Do(quiet)
	if serviceName == "" {
		serviceName = DefaultServiceName
	}
	c := &converter{}
	c.rs.Resource = &resourcepb.Resource{Attributes: keyValues(
		semconv.ServiceName(serviceName),
		semconv.ServiceVersion(version),
		attribute.String("telemetry.sdk.language", "go"),
		attribute.String("telemetry.sdk.name", "opentelemetry"))}
	c.rs.SchemaUrl = semconv.SchemaURL
	c.ss.Scope = &commonpb.InstrumentationScope{Name: scopeName, Version: version}
	c.ss.SchemaUrl = semconv.SchemaURL
	c.rs.ScopeSpans = []*tracepb.ScopeSpans{&c.ss}
	c.out = []*tracepb.ResourceSpans{&c.rs}
	return c
}

// keyValues converts attributes once, for the resource.
func keyValues(kvs ...attribute.KeyValue) []*commonpb.KeyValue {
	out := make([]*commonpb.KeyValue, len(kvs))
	for i, kv := range kvs {
		out[i] = &commonpb.KeyValue{Key: string(kv.Key), Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: kv.Value.String()}}}
	}
	return out
}

var quietOnce sync.Once

// quiet stops the SDK's global error handler and logger from writing to
// stderr, which would tear through the TUI: what goes wrong with an export
// is counted by the sink and said once at the end.
func quiet() {
	otelapi.SetErrorHandler(otelapi.ErrorHandlerFunc(func(error) {}))
	otelapi.SetLogger(logr.Discard())
}

// grow returns s with length n, reallocated only when too small.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// convert returns the OTLP messages of spans, nil when there are none.
func (c *converter) convert(spans []*span) []*tracepb.ResourceSpans {
	if len(spans) == 0 {
		return nil
	}
	nattr, nev := 0, 0
	for _, s := range spans {
		nattr += len(s.attrs)
		nev += len(s.events)
		for _, e := range s.events {
			nattr += len(e.attrs)
		}
	}
	n := len(spans)
	c.spans, c.spanPtrs, c.statuses = grow(c.spans, n), grow(c.spanPtrs, n), grow(c.statuses, n)
	c.events, c.eventPtrs = grow(c.events, nev), grow(c.eventPtrs, nev)
	c.kvs, c.kvPtrs, c.vals = grow(c.kvs, nattr), grow(c.kvPtrs, nattr), grow(c.vals, nattr)
	c.strs, c.ints = grow(c.strs, nattr), grow(c.ints, nattr)
	c.doubles, c.bools = grow(c.doubles, nattr), grow(c.bools, nattr)
	c.ids = grow(c.ids, n*(16+8+8))
	c.nkv, c.nev = 0, 0
	for i, s := range spans {
		p := &c.spans[i]
		c.spanPtrs[i] = p
		ids := c.ids[i*32 : i*32+32 : i*32+32]
		copy(ids, s.traceID[:])
		copy(ids[16:], s.id[:])
		p.TraceId, p.SpanId = ids[:16:16], ids[16:24:24]
		p.ParentSpanId = nil
		if s.parent.IsValid() {
			copy(ids[24:], s.parent[:])
			p.ParentSpanId = ids[24:32:32]
		}
		p.TraceState = ""
		// Sampled, and known not to have a remote parent.
		p.Flags = uint32(trace.FlagsSampled) | uint32(tracepb.SpanFlags_SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK)
		p.Name = s.name
		p.Kind = tracepb.Span_SpanKind(s.kind) // the API's kinds are OTLP's numbers
		p.StartTimeUnixNano = uint64(max(0, s.start.UnixNano()))
		p.EndTimeUnixNano = uint64(max(0, s.end.UnixNano()))
		p.Attributes = c.attributes(s.attrs)
		p.DroppedAttributesCount = 0
		p.Events = nil
		if len(s.events) > 0 {
			evs := c.eventPtrs[c.nev : c.nev+len(s.events) : c.nev+len(s.events)]
			for k, e := range s.events {
				pe := &c.events[c.nev+k]
				pe.Name = e.name
				pe.TimeUnixNano = uint64(max(0, e.at.UnixNano()))
				pe.Attributes = c.attributes(e.attrs)
				pe.DroppedAttributesCount = 0
				evs[k] = pe
			}
			c.nev += len(s.events)
			p.Events = evs
		}
		p.DroppedEventsCount = uint32(min(s.droppedEvents, 1<<32-1))
		p.Links, p.DroppedLinksCount = nil, 0
		st := &c.statuses[i]
		st.Code, st.Message = tracepb.Status_STATUS_CODE_UNSET, ""
		if s.status == codes.Error { // the only status the builder sets
			st.Code, st.Message = tracepb.Status_STATUS_CODE_ERROR, s.statusMsg
		}
		p.Status = st
	}
	c.ss.Spans = c.spanPtrs
	return c.out
}

// attributes converts a span's or an event's attributes into the slabs:
// the scalar kinds the builder makes (any other would be a builder bug,
// and is written as its text rather than lost).
func (c *converter) attributes(kvs []attribute.KeyValue) []*commonpb.KeyValue {
	if len(kvs) == 0 {
		return nil
	}
	out := c.kvPtrs[c.nkv : c.nkv+len(kvs) : c.nkv+len(kvs)]
	for k, kv := range kvs {
		j := c.nkv + k
		pkv, v := &c.kvs[j], &c.vals[j]
		switch kv.Value.Type() {
		case attribute.STRING:
			c.strs[j].StringValue = kv.Value.AsString()
			v.Value = &c.strs[j]
		case attribute.INT64:
			c.ints[j].IntValue = kv.Value.AsInt64()
			v.Value = &c.ints[j]
		case attribute.FLOAT64:
			c.doubles[j].DoubleValue = kv.Value.AsFloat64()
			v.Value = &c.doubles[j]
		case attribute.BOOL:
			c.bools[j].BoolValue = kv.Value.AsBool()
			v.Value = &c.bools[j]
		default:
			c.strs[j].StringValue = kv.Value.String()
			v.Value = &c.strs[j]
		}
		pkv.Key, pkv.Value = string(kv.Key), v
		out[k] = pkv
	}
	c.nkv += len(kvs)
	return out
}
