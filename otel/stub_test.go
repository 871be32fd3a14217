package otel

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"ohwatch/reducer"
)

// builtSpans are the spans the builder makes of a conversation, in the
// order they end.
func builtSpans(c conversation, opts Options) ([]*span, reducer.State) {
	log := reducer.NewLog(nil, 0)
	log.Append(c.evs...)
	var spans []*span
	newBuilder(func(s *span) { spans = append(spans, s) }, c.name, opts).AddLog(log)
	return spans, log.Latest()
}

// stub is a span in the SDK's own form, as its in-memory exporter would
// hold it had the SDK's tracer made it: what the tests read, and what the
// SDK's transformation is given to check convert against.
func (s *span) stub(serviceName, version string) tracetest.SpanStub {
	if serviceName == "" {
		serviceName = DefaultServiceName
	}
	sc := func(id trace.SpanID) trace.SpanContext {
		return trace.NewSpanContext(trace.SpanContextConfig{TraceID: s.traceID, SpanID: id, TraceFlags: trace.FlagsSampled})
	}
	st := tracetest.SpanStub{
		Name: s.name, SpanContext: sc(s.id), SpanKind: s.kind, StartTime: s.start, EndTime: s.end,
		Attributes: s.attrs, DroppedEvents: s.droppedEvents,
		Status: sdktrace.Status{Code: s.status, Description: s.statusMsg},
		Resource: sdkresource.NewWithAttributes(semconv.SchemaURL,
			semconv.ServiceName(serviceName),
			semconv.ServiceVersion(version),
			attribute.String("telemetry.sdk.language", "go"),
			attribute.String("telemetry.sdk.name", "opentelemetry")),
		InstrumentationScope: instrumentation.Scope{Name: scopeName, Version: version, SchemaURL: semconv.SchemaURL},
	}
	if s.parent.IsValid() {
		st.Parent = sc(s.parent)
	}
	for _, e := range s.events {
		st.Events = append(st.Events, sdktrace.Event{Name: e.name, Time: e.at, Attributes: e.attrs})
	}
	return st
}

func stubs(spans []*span, serviceName, version string) tracetest.SpanStubs {
	out := make(tracetest.SpanStubs, len(spans))
	for i, s := range spans {
		out[i] = s.stub(serviceName, version)
	}
	return out
}

// sdkOTLP is what the SDK's exporter makes of spans.
func sdkOTLP(t testing.TB, ss tracetest.SpanStubs) []*tracepb.ResourceSpans {
	t.Helper()
	var rs []*tracepb.ResourceSpans
	if err := otlptrace.NewUnstarted(recordClient{got: &rs}).ExportSpans(context.Background(), ss.Snapshots()); err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestConvertIsTheSDKs: over every recording, with and without content,
// convert makes exactly the OTLP messages the SDK's exporter makes of the
// same spans, batch after batch with its slabs reused.
func TestConvertIsTheSDKs(t *testing.T) {
	conv := newConverter("svc", "v9")
	for _, c := range conversations(t) {
		for _, content := range []bool{false, true} {
			spans, _ := builtSpans(c, Options{Content: content})
			for i := 0; i < len(spans); i += 97 {
				batch := spans[i:min(i+97, len(spans))]
				want := sdkOTLP(t, stubs(batch, "svc", "v9"))
				got := conv.convert(batch)
				if len(got) != len(want) || !proto.Equal(got[0], want[0]) {
					t.Fatalf("%s content=%v spans %d..: convert differs from the SDK's transformation:\n got %v\nwant %v", c.name, content, i, got, want)
				}
			}
		}
	}
	if conv.convert(nil) != nil {
		t.Fatal("no spans: want no messages")
	}
}

// TestSpanFollowsTheSDKsRules: a key set again keeps its place, events past
// the limit drop the oldest and are counted, an ended span changes no more.
func TestSpanFollowsTheSDKsRules(t *testing.T) {
	var ended []*span
	b := newBuilder(func(s *span) { ended = append(ended, s) }, "c", Options{})
	at := time.Unix(1_700_000_000, 0)
	s := b.start(trace.SpanID{}, "s", at, trace.SpanKindInternal, "k")
	s.set(attribute.Int("a", 1), attribute.Int("b", 2))
	s.set(attribute.Int("a", 3))
	for i := range eventLimit + 5 {
		s.event("e", at, attribute.Int("i", i))
	}
	b.end(s, at)
	s.set(attribute.Int("c", 4))
	s.fail("late")
	b.end(s, at)
	if len(ended) != 1 {
		t.Fatalf("ended %d times", len(ended))
	}
	if len(s.attrs) != 2 || s.attrs[0] != attribute.Int("a", 3) || s.attrs[1] != attribute.Int("b", 2) || s.status != 0 {
		t.Fatalf("attrs %v status %v", s.attrs, s.status)
	}
	if len(s.events) != eventLimit || s.droppedEvents != 5 || s.events[0].attrs[0] != attribute.Int("i", 5) {
		t.Fatalf("%d events, %d dropped, first %v", len(s.events), s.droppedEvents, s.events[0].attrs)
	}
	rs := newConverter("", "").convert(ended)
	if got := rs[0].ScopeSpans[0].Spans[0].DroppedEventsCount; got != 5 {
		t.Fatalf("dropped events sent as %d", got)
	}
}
