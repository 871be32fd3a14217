package compare

import (
	"testing"
	"time"

	"ohwatch/gen"

	"ohwatch/internal/testevents"
	"ohwatch/reducer"
)

// runOf folds n generated events of seed into a run.
func runOf(tb testing.TB, name string, n int, seed int64) *Run {
	log := reducer.NewLog(nil, 0)
	log.Append(testevents.Generated(tb, n, seed)...)
	r := NewRun(Side{Name: name, Log: log, Ended: true})
	r.Update()
	return r
}

// stepsOf is a run's steps along its path, 10,000 of them at most.
func stepsOf(r *Run, n int) []Step {
	s := r.steps.Along(r.Path())
	return s[:min(len(s), n)]
}

// BenchmarkAlign10k aligns two different 10,000-step runs (two seeds of
// the generator: little in common) and a run with its own copy after a
// thousand steps were taken out of the middle.
func BenchmarkAlign10k(b *testing.B) {
	a := stepsOf(runOf(b, "A", 40000, 1), 10000)
	other := stepsOf(runOf(b, "B", 40000, 2), 10000)
	if len(a) < 10000 || len(other) < 10000 {
		b.Fatalf("only %d and %d steps", len(a), len(other))
	}
	cut := append(append([]Step(nil), a[:4000]...), a[5000:]...)
	b.Run("different-runs", func(b *testing.B) { benchAlign(b, a, other) })
	b.Run("one-run-with-a-gap", func(b *testing.B) { benchAlign(b, a, cut) })
}

// benchAlign times Align(a, x), reporting the CPU time of the aligning
// thread too (cpu-ms/op): on a loaded machine it counts the work, not the
// wait for a core.
func benchAlign(b *testing.B, a, x []Step) {
	defer lockThread()()
	start := threadCPU()
	for b.Loop() {
		Align(a, x)
	}
	b.ReportMetric(float64((threadCPU()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkAlignLarge aligns two runs of 300,000 events each (about
// 100,000 steps a side), two seeds of the generator.
func BenchmarkAlignLarge(b *testing.B) {
	a := stepsOf(runOf(b, "A", 300000, 1), 1<<30)
	other := stepsOf(runOf(b, "B", 300000, 2), 1<<30)
	b.Run("different-runs", func(b *testing.B) { benchAlign(b, a, other) })
}

// BenchmarkOpen100k opens a comparison of two 100,000-event recordings
// (a generated conversation and a fork of it, read from disk) against
// opening both alone: each iteration reads and folds both recordings
// (open-ms), then lines them up and builds the report (compare-ms);
// x-open is the whole over the opening alone.
func BenchmarkOpen100k(b *testing.B) {
	dirs, err := gen.WriteRoot(b.TempDir(), gen.Options{Events: 100000, Seed: 5, Forks: 1})
	if err != nil {
		b.Fatal(err)
	}
	var open, cmp time.Duration
	for b.Loop() {
		t0 := time.Now()
		a, f := loadRun(b, "A", dirs[0]), loadRun(b, "B", dirs[1])
		t1 := time.Now()
		r := NewReport(Compare(a, f))
		t2 := time.Now()
		if r.SharedUntilEventID == nil {
			b.Fatal("a fork shares nothing with its parent")
		}
		open, cmp = open+t1.Sub(t0), cmp+t2.Sub(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(open.Milliseconds())/n, "open-ms")
	b.ReportMetric(float64(cmp.Milliseconds())/n, "compare-ms")
	b.ReportMetric(float64(open+cmp)/float64(open), "x-open")
}
