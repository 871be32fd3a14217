package otel

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math"
	"strconv"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"ohwatch/internal/jsonx"
)

// This file writes the OTLP/JSON of the messages the SDK's exporter makes
// (tracepb), walking them directly. It writes what protojson writes with
// enums as numbers, followed by the one rewrite OTLP/JSON asks for (ids in
// hex), byte for byte but without protojson's whitespace: protojson reads
// every field through reflection, which made its encoding most of an
// export's work. A message with something this encoder does not know
// (resource entity references) returns errUnknownField, and the export
// falls back to protojson for that chunk.
//
// It pays: on the SDK exporter's messages for a generated 20k-event
// conversation (`go test -run '^$' -bench OTLPJSONRace ./otel`) it takes
// 3-7 µs a span with its conversion, protojson 50-140 µs; `BenchmarkExport`
// (./otel) takes 1.1-2.2 s with it and 2.4-7.2 s through protojson alone.

// errUnknownField says a message holds a field this encoder does not write.
var errUnknownField = errors.New("otlp json: a field the direct encoder does not write")

// jsonEnc appends OTLP/JSON to b, one object at a time: first says whether
// the object being written has a member yet.
type jsonEnc struct {
	b     []byte
	first bool
	err   error
}

func (e *jsonEnc) open()  { e.b = append(e.b, '{'); e.first = true }
func (e *jsonEnc) close() { e.b = append(e.b, '}'); e.first = false }

// name writes a member name (a constant: no escaping needed).
func (e *jsonEnc) name(n string) {
	if !e.first {
		e.b = append(e.b, ',')
	}
	e.first = false
	e.b = append(e.b, '"')
	e.b = append(e.b, n...)
	e.b = append(e.b, '"', ':')
}

func (e *jsonEnc) str(n, v string) {
	if v != "" {
		e.name(n)
		e.quote(v)
	}
}

func (e *jsonEnc) u32(n string, v uint32) {
	if v != 0 {
		e.name(n)
		e.b = strconv.AppendUint(e.b, uint64(v), 10)
	}
}

func (e *jsonEnc) i32(n string, v int32) {
	if v != 0 {
		e.name(n)
		e.b = strconv.AppendInt(e.b, int64(v), 10)
	}
}

// u64 writes a 64-bit number as protojson does: a decimal string.
func (e *jsonEnc) u64(n string, v uint64) {
	if v != 0 {
		e.name(n)
		e.b = append(e.b, '"')
		e.b = strconv.AppendUint(e.b, v, 10)
		e.b = append(e.b, '"')
	}
}

// id writes trace and span ids in hex, as OTLP/JSON has them.
func (e *jsonEnc) id(n string, v []byte) {
	if len(v) != 0 {
		e.name(n)
		e.b = append(e.b, '"')
		e.b = hex.AppendEncode(e.b, v)
		e.b = append(e.b, '"')
	}
}

// quote writes a JSON string with the one escaper every writer shares;
// for valid UTF-8 it is protojson's escaping (no HTML escapes), and invalid
// UTF-8, which protojson refuses, becomes U+FFFD: an export never fails on
// one odd byte in a command's output.
func (e *jsonEnc) quote(s string) { e.b = jsonx.AppendString(e.b, s, 0) }

// float writes a double as protojson does (encoding/json's form; NaN and
// the infinities as strings).
func (e *jsonEnc) float(v float64) {
	switch {
	case math.IsNaN(v):
		e.b = append(e.b, `"NaN"`...)
		return
	case math.IsInf(v, 1):
		e.b = append(e.b, `"Infinity"`...)
		return
	case math.IsInf(v, -1):
		e.b = append(e.b, `"-Infinity"`...)
		return
	}
	f := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		f = 'e'
	}
	e.b = strconv.AppendFloat(e.b, v, f, -1, 64)
	if f == 'e' {
		if n := len(e.b); n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
			e.b[n-2] = e.b[n-1]
			e.b = e.b[:n-1]
		}
	}
}

// appendRequestJSON appends one ExportTraceServiceRequest of rs.
func appendRequestJSON(dst []byte, rs []*tracepb.ResourceSpans) ([]byte, error) {
	e := &jsonEnc{b: dst}
	e.open()
	member(e, "resourceSpans", rs, e.resourceSpans)
	e.close()
	return e.b, e.err
}

func (e *jsonEnc) resourceSpans(r *tracepb.ResourceSpans) {
	e.open()
	if r.Resource != nil {
		e.name("resource")
		e.resource(r.Resource)
	}
	member(e, "scopeSpans", r.ScopeSpans, e.scopeSpans)
	e.str("schemaUrl", r.SchemaUrl)
	e.close()
}

func (e *jsonEnc) resource(r *resourcepb.Resource) {
	if len(r.EntityRefs) > 0 && e.err == nil {
		e.err = errUnknownField
	}
	e.open()
	e.attrs("attributes", r.Attributes)
	e.u32("droppedAttributesCount", r.DroppedAttributesCount)
	e.close()
}

func (e *jsonEnc) scopeSpans(s *tracepb.ScopeSpans) {
	e.open()
	if sc := s.Scope; sc != nil {
		e.name("scope")
		e.open()
		e.str("name", sc.Name)
		e.str("version", sc.Version)
		e.attrs("attributes", sc.Attributes)
		e.u32("droppedAttributesCount", sc.DroppedAttributesCount)
		e.close()
	}
	member(e, "spans", s.Spans, e.span)
	e.str("schemaUrl", s.SchemaUrl)
	e.close()
}

func (e *jsonEnc) span(s *tracepb.Span) {
	e.open()
	e.id("traceId", s.TraceId)
	e.id("spanId", s.SpanId)
	e.str("traceState", s.TraceState)
	e.id("parentSpanId", s.ParentSpanId)
	e.u32("flags", s.Flags)
	e.str("name", s.Name)
	e.i32("kind", int32(s.Kind))
	e.u64("startTimeUnixNano", s.StartTimeUnixNano)
	e.u64("endTimeUnixNano", s.EndTimeUnixNano)
	e.attrs("attributes", s.Attributes)
	e.u32("droppedAttributesCount", s.DroppedAttributesCount)
	member(e, "events", s.Events, func(ev *tracepb.Span_Event) {
		e.open()
		e.u64("timeUnixNano", ev.TimeUnixNano)
		e.str("name", ev.Name)
		e.attrs("attributes", ev.Attributes)
		e.u32("droppedAttributesCount", ev.DroppedAttributesCount)
		e.close()
	})
	e.u32("droppedEventsCount", s.DroppedEventsCount)
	member(e, "links", s.Links, func(l *tracepb.Span_Link) {
		e.open()
		e.id("traceId", l.TraceId)
		e.id("spanId", l.SpanId)
		e.str("traceState", l.TraceState)
		e.attrs("attributes", l.Attributes)
		e.u32("droppedAttributesCount", l.DroppedAttributesCount)
		e.u32("flags", l.Flags)
		e.close()
	})
	e.u32("droppedLinksCount", s.DroppedLinksCount)
	if st := s.Status; st != nil {
		e.name("status")
		e.open()
		e.str("message", st.Message)
		e.i32("code", int32(st.Code))
		e.close()
	}
	e.close()
}

// attrs writes a list of key-values under n; nothing when it is empty.
func (e *jsonEnc) attrs(n string, kvs []*commonpb.KeyValue) {
	member(e, n, kvs, e.keyValue)
}

func (e *jsonEnc) keyValue(kv *commonpb.KeyValue) {
	e.open()
	e.str("key", kv.Key)
	if kv.Value != nil {
		e.name("value")
		e.anyValue(kv.Value)
	}
	e.i32("keyStrindex", kv.KeyStrindex)
	e.close()
}

// member writes n: [items…], nothing when there are none.
func member[T any](e *jsonEnc, n string, items []*T, write func(*T)) {
	if len(items) == 0 {
		return
	}
	e.name(n)
	array(e, items, write)
}

// array writes items as a JSON array, each by write. A nil element is a
// message this encoder cannot spell, so the chunk falls back to protojson.
func array[T any](e *jsonEnc, items []*T, write func(*T)) {
	e.b = append(e.b, '[')
	for i, it := range items {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if it == nil {
			e.err = errUnknownField
			break
		}
		write(it)
	}
	e.b = append(e.b, ']')
}

// anyValue writes the one member of the oneof that is set; a set member is
// written even when it holds its zero value, as protojson does.
func (e *jsonEnc) anyValue(v *commonpb.AnyValue) {
	e.open()
	switch x := v.Value.(type) {
	case *commonpb.AnyValue_StringValue:
		e.name("stringValue")
		e.quote(x.StringValue)
	case *commonpb.AnyValue_BoolValue:
		e.name("boolValue")
		e.b = strconv.AppendBool(e.b, x.BoolValue)
	case *commonpb.AnyValue_IntValue:
		e.name("intValue")
		e.b = append(e.b, '"')
		e.b = strconv.AppendInt(e.b, x.IntValue, 10)
		e.b = append(e.b, '"')
	case *commonpb.AnyValue_DoubleValue:
		e.name("doubleValue")
		e.float(x.DoubleValue)
	case *commonpb.AnyValue_ArrayValue:
		e.name("arrayValue")
		e.open()
		if x.ArrayValue != nil {
			member(e, "values", x.ArrayValue.Values, e.anyValue)
		}
		e.close()
	case *commonpb.AnyValue_KvlistValue:
		e.name("kvlistValue")
		e.open()
		if x.KvlistValue != nil {
			member(e, "values", x.KvlistValue.Values, e.keyValue)
		}
		e.close()
	case *commonpb.AnyValue_BytesValue:
		e.name("bytesValue")
		e.b = append(e.b, '"')
		e.b = base64.StdEncoding.AppendEncode(e.b, x.BytesValue)
		e.b = append(e.b, '"')
	case *commonpb.AnyValue_StringValueStrindex:
		e.name("stringValueStrindex")
		e.b = strconv.AppendInt(e.b, int64(x.StringValueStrindex), 10)
	case nil:
	default:
		if e.err == nil {
			e.err = errUnknownField
		}
	}
	e.close()
}
