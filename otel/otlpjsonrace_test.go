package otel

import (
	"testing"

	"ohwatch/internal/testevents"
)

// BenchmarkOTLPJSONRace races the direct OTLP/JSON encoder against
// protojson (with the hex rewrite of its ids) on the same messages: the
// SDK exporter's ExportTraceServiceRequest contents for the spans of a
// generated 20k-event conversation, in the export's chunks.
//
//	nice go test -run '^$' -bench OTLPJSONRace -count 3 ./otel
func BenchmarkOTLPJSONRace(b *testing.B) {
	spans, _ := builtSpans(conversation{"generated-20000", testevents.Generated(b, 20000, 1)}, Options{})
	var chunks [][]*span
	for i := 0; i < len(spans); i += exportBatch {
		chunks = append(chunks, spans[i:min(i+exportBatch, len(spans))])
	}
	conv := newConverter("bench", "v")
	var dst, scratch []byte
	var err error
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			for _, c := range chunks {
				if dst, err = appendRequestJSON(dst[:0], conv.convert(c)); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(spans)), "ns/span")
	})
	b.Run("protojson", func(b *testing.B) {
		for b.Loop() {
			for _, c := range chunks {
				if dst, scratch, err = appendProtoJSON(dst[:0], scratch, conv.convert(c)); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(spans)), "ns/span")
	})
}
