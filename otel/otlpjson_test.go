package otel

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"testing"
	"unicode/utf8"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// otlpOf is what the SDK's exporter makes of a conversation's spans: the
// messages both encoders are given.
func otlpOf(t *testing.T, c conversation, opts Options) []*tracepb.ResourceSpans {
	t.Helper()
	spans, _ := builtSpans(c, opts)
	return sdkOTLP(t, stubs(spans, "", "test"))
}

type recordClient struct{ got *[]*tracepb.ResourceSpans }

func (recordClient) Start(context.Context) error { return nil }
func (recordClient) Stop(context.Context) error  { return nil }
func (c recordClient) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	*c.got = append(*c.got, rs...)
	return nil
}

// sameAsProtoJSON checks that the direct encoder writes exactly what
// protojson (plus the hex ids) writes, whitespace aside.
func sameAsProtoJSON(t *testing.T, rs []*tracepb.ResourceSpans) {
	t.Helper()
	want, _, werr := appendProtoJSON(nil, nil, rs)
	got, gerr := appendRequestJSON(nil, rs)
	if gerr != nil {
		t.Fatalf("direct encoder error %v (protojson: %v)", gerr, werr)
	}
	if werr != nil {
		// protojson refuses invalid UTF-8; the direct encoder writes
		// U+FFFD for each bad byte, as every writer does.
		if !json.Valid(got) || !utf8.Valid(got) {
			t.Fatalf("protojson refused (%v); the direct encoding is not valid JSON: %q", werr, got)
		}
		return
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compact.Bytes(), got) {
		i := 0
		for i < len(got) && i < compact.Len() && got[i] == compact.Bytes()[i] {
			i++
		}
		t.Fatalf("direct encoding differs from protojson at byte %d:\n got %.200s\nwant %.200s", i, got[i:], compact.Bytes()[i:])
	}
}

// TestDirectJSONIsProtoJSON: over every recording, with and without
// content, the direct encoder's OTLP/JSON is protojson's, byte for byte.
func TestDirectJSONIsProtoJSON(t *testing.T) {
	for _, c := range conversations(t) {
		for _, content := range []bool{false, true} {
			sameAsProtoJSON(t, otlpOf(t, c, Options{Content: content}))
		}
	}
}

// TestDirectJSONEveryField: the fields and values the builder never sets
// (links, arrays, maps, bytes, odd doubles, dropped counts) are written as
// protojson writes them, and a field the encoder does not know falls back
// to protojson.
func TestDirectJSONEveryField(t *testing.T) {
	str := func(s string) *commonpb.AnyValue {
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: s}}
	}
	var vals []*commonpb.KeyValue
	for i, d := range []float64{0, 1, -2.5, 1e-7, 1e21, 123456789.125, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324} {
		vals = append(vals, &commonpb.KeyValue{Key: string(rune('a' + i)), Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: d}}})
	}
	vals = append(vals,
		&commonpb.KeyValue{Key: "s", Value: str("q\"\\\b\f\n\r\t\x01\x1f\u2028\ufffd<&>é😀")},
		&commonpb.KeyValue{Key: "empty", Value: str("")},
		&commonpb.KeyValue{Key: "f", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{}}},
		&commonpb.KeyValue{Key: "i", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: math.MinInt64}}},
		&commonpb.KeyValue{Key: "z", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{}}},
		&commonpb.KeyValue{Key: "b", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_BytesValue{BytesValue: []byte{0, 1, 250}}}},
		&commonpb.KeyValue{Key: "arr", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{Values: []*commonpb.AnyValue{str("x"), {}}}}}},
		&commonpb.KeyValue{Key: "kv", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_KvlistValue{KvlistValue: &commonpb.KeyValueList{Values: []*commonpb.KeyValue{{Key: "k", Value: str("v")}}}}}},
		&commonpb.KeyValue{Key: "emptykv", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_KvlistValue{KvlistValue: &commonpb.KeyValueList{}}}},
		&commonpb.KeyValue{Key: "idx", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValueStrindex{StringValueStrindex: 3}}, KeyStrindex: 2},
		&commonpb.KeyValue{Key: "novalue"},
		&commonpb.KeyValue{Value: str("nokey")},
	)
	id := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	tid := append(append([]byte{}, id...), id...)
	rs := []*tracepb.ResourceSpans{{
		Resource:  &resourcepb.Resource{Attributes: vals[:2], DroppedAttributesCount: 3},
		SchemaUrl: "https://s",
		ScopeSpans: []*tracepb.ScopeSpans{{
			Scope:     &commonpb.InstrumentationScope{Name: "n", Version: "v", Attributes: vals[2:3], DroppedAttributesCount: 1},
			SchemaUrl: "u",
			Spans: []*tracepb.Span{{
				TraceId: tid, SpanId: id, TraceState: "a=b", ParentSpanId: id, Flags: 257, Name: "span",
				Kind: tracepb.Span_SPAN_KIND_CLIENT, StartTimeUnixNano: 1, EndTimeUnixNano: math.MaxUint64,
				Attributes: vals, DroppedAttributesCount: 4,
				Events:             []*tracepb.Span_Event{{TimeUnixNano: 7, Name: "e", Attributes: vals[3:5], DroppedAttributesCount: 1}, {}},
				DroppedEventsCount: 5,
				Links:              []*tracepb.Span_Link{{TraceId: tid, SpanId: id, TraceState: "x=y", Attributes: vals[:1], DroppedAttributesCount: 2, Flags: 1}, {}},
				DroppedLinksCount:  6,
				Status:             &tracepb.Status{Message: "m", Code: tracepb.Status_STATUS_CODE_ERROR},
			}, {Status: &tracepb.Status{}}},
		}, {}},
	}, {}}
	sameAsProtoJSON(t, rs)

	rs[0].Resource.EntityRefs = []*commonpb.EntityRef{{Type: "host", IdKeys: []string{"host.id"}}}
	if _, err := appendRequestJSON(nil, rs); err != errUnknownField {
		t.Fatalf("entity refs: %v, want the fallback", err)
	}
	out, _, err := appendJSON(nil, nil, rs)
	if err != nil || !bytes.Contains(out, []byte(`"entityRefs"`)) {
		t.Fatalf("fallback: %v %s", err, out)
	}
}

// FuzzDirectJSON: any string in any place, any number, the direct encoder
// agrees with protojson; where protojson refuses invalid UTF-8 it writes
// valid JSON with U+FFFD.
func FuzzDirectJSON(f *testing.F) {
	f.Add("plain", int64(1), 0.5, uint64(3))
	f.Add("\x00\x7f\u00ad\ufffd\xff\"\\", int64(-1), 1e-9, uint64(0))
	f.Add("", int64(0), math.Inf(1), uint64(math.MaxUint64))
	f.Fuzz(func(t *testing.T, s string, n int64, d float64, u uint64) {
		id := []byte{9, 8, 7, 6, 5, 4, 3, 2}
		attrs := []*commonpb.KeyValue{
			{Key: s, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: s}}},
			{Key: "n", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: n}}},
			{Key: "d", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: d}}},
		}
		sameAsProtoJSON(t, []*tracepb.ResourceSpans{{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{
			TraceId: append(id, id...), SpanId: id, Name: s, StartTimeUnixNano: u, Attributes: attrs,
			Events: []*tracepb.Span_Event{{Name: s, TimeUnixNano: u, Attributes: attrs}},
			Status: &tracepb.Status{Message: s},
		}}}}}})
	})
}
