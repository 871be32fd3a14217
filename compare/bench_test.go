package compare

import (
	"testing"

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
