package cli

import (
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"ohwatch/internal/benchdir"
	"ohwatch/session"
)

// BenchmarkHeadlessReplayVsState compares `ohwatch replay --headless` of a
// generated 100k-event directory (or the one OHWATCH_HEADLESS_DIR names),
// its text or JSON lines written into a pipe that a reader drains (as in
// `ohwatch replay X --headless | grep …`), with `ohwatch state` on the same
// directory, the three alternated in each round. All read and reduce every
// event; the headless replay also prints a line per event, which must cost
// little beside that (target ≤ 1.5x). The ratios are reported in wall time
// (x-state, x-state-json) and in the process's CPU time (x-state-cpu,
// x-state-cpu-json), which other processes on a loaded machine do not
// inflate.
func BenchmarkHeadlessReplayVsState(b *testing.B) {
	dir := os.Getenv("OHWATCH_HEADLESS_DIR")
	if dir == "" {
		dir = benchdir.Dir(b, benchdir.Events)
	}
	// A first read pays the disk; this one puts the directory in the page
	// cache, so that the three commands measured all read it warm.
	timeCmd(b, "state", dir)
	var state, replay, replayJSON timing
	n := 0
	for b.Loop() {
		state.add(timeCmd(b, "state", dir))
		replay.add(timeCmd(b, "replay", dir, "--headless"))
		replayJSON.add(timeCmd(b, "replay", dir, "--headless", "--json"))
		n++
	}
	b.ReportMetric(state.wall.Seconds()/float64(n), "s-state/op")
	b.ReportMetric(replay.wall.Seconds()/float64(n), "s-replay/op")
	b.ReportMetric(replayJSON.wall.Seconds()/float64(n), "s-json/op")
	b.ReportMetric(float64(replay.wall)/float64(state.wall), "x-state")
	b.ReportMetric(float64(replayJSON.wall)/float64(state.wall), "x-state-json")
	b.ReportMetric(float64(replay.cpu)/float64(state.cpu), "x-state-cpu")
	b.ReportMetric(float64(replayJSON.cpu)/float64(state.cpu), "x-state-cpu-json")
}

// timing is the wall and CPU time of some runs.
type timing struct{ wall, cpu time.Duration }

func (t *timing) add(o timing) { t.wall += o.wall; t.cpu += o.cpu }

// timeCmd runs one command with its stdout into a drained pipe and returns
// how long it took, in wall time and in the process's CPU time (a GC of
// what the run before left is started first, so it is not counted here).
func timeCmd(b *testing.B, args ...string) timing {
	b.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	drained := make(chan struct{})
	go func() {
		io.Copy(io.Discard, r)
		r.Close()
		close(drained)
	}()
	e := &session.Env{Stdout: w, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	runtime.GC()
	start, startCPU := time.Now(), cpuTime()
	code := run(args, e)
	w.Close()
	<-drained
	took := timing{wall: time.Since(start), cpu: cpuTime() - startCPU}
	if code != 0 && code != 5 {
		b.Fatalf("%v: exit %d", args, code)
	}
	return took
}
