package otel

import (
	"bytes"
	"encoding/json"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// TestProtoJSONEnvelopeIsTheRequests: the envelope appendProtoJSON writes
// around protojson's resource spans is what protojson writes for the
// collector's ExportTraceServiceRequest, so the fallback needs no import
// of the collector package outside tests.
func TestProtoJSONEnvelopeIsTheRequests(t *testing.T) {
	t.Parallel()
	tid, id := bytes.Repeat([]byte{0xab}, 16), bytes.Repeat([]byte{0xcd}, 8)
	for name, rs := range map[string][]*tracepb.ResourceSpans{
		"none": nil,
		"one":  {{SchemaUrl: "u", ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{TraceId: tid, SpanId: id, Name: "s"}}}}}},
		"three": {{Resource: &resourcepb.Resource{DroppedAttributesCount: 1}}, {}, {ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{TraceId: tid, SpanId: id, ParentSpanId: id,
			Kind: tracepb.Span_SPAN_KIND_SERVER}}}}}},
	} {
		got, _, err := appendProtoJSON(nil, nil, rs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		raw, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(&coltracepb.ExportTraceServiceRequest{ResourceSpans: rs})
		if err != nil {
			t.Fatal(err)
		}
		want, err := hexIDs(nil, raw)
		if err != nil {
			t.Fatal(err)
		}
		var g, w bytes.Buffer
		if err := json.Compact(&g, got); err != nil {
			t.Fatalf("%s: %v: %s", name, err, got)
		}
		if err := json.Compact(&w, want); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g.Bytes(), w.Bytes()) {
			t.Errorf("%s:\n got %s\nwant %s", name, g.Bytes(), w.Bytes())
		}
	}
}
