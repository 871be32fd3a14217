package gen

import (
	"io"
	"testing"
)

// BenchmarkEvents measures generation alone: events/s and bytes/s.
func BenchmarkEvents(b *testing.B) {
	const n = 100_000
	b.ReportAllocs()
	var total int64
	for b.Loop() {
		total = 0
		for ev := range Events(Options{Events: n, Seed: 1}) {
			total += int64(len(ev))
		}
	}
	b.SetBytes(total)
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkWriteJSONL measures generation and encoding to a discarding
// writer.
func BenchmarkWriteJSONL(b *testing.B) {
	for b.Loop() {
		if err := WriteJSONL(io.Discard, Options{Events: 100_000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(100_000*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkWriteDir measures the SDK layout on disk: one file per event.
func BenchmarkWriteDir(b *testing.B) {
	const n = 20_000
	for b.Loop() {
		if err := WriteDir(b.TempDir(), Options{Events: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkBaseState measures replaying a conversation for its full
// Metrics lists.
func BenchmarkBaseState(b *testing.B) {
	var size int
	for b.Loop() {
		size = len(BaseState(Options{Events: 100_000, Seed: 1}))
	}
	b.ReportMetric(float64(size), "bytes")
}
