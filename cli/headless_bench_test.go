package cli

import (
	"io"
	"os"
	"testing"
	"time"

	"ohwatch/internal/benchdir"
	"ohwatch/session"
)

// BenchmarkHeadlessReplayVsState compares `ohwatch replay --headless` of a
// generated 100k-event directory, its text written into a pipe that a
// reader drains (as in `ohwatch replay X --headless | grep …`), with
// `ohwatch state` on the same directory. Both read and reduce every event;
// the headless replay also prints a line per event, which must cost little
// beside that: the lines are buffered and written per batch. The ratio is
// reported as x-state (target ≤ 1.5).
func BenchmarkHeadlessReplayVsState(b *testing.B) {
	dir := benchdir.Dir(b, benchdir.Events)
	var state, replay time.Duration
	n := 0
	for b.Loop() {
		state += timeCmd(b, "state", dir)
		replay += timeCmd(b, "replay", dir, "--headless")
		n++
	}
	b.ReportMetric(state.Seconds()/float64(n), "s-state/op")
	b.ReportMetric(replay.Seconds()/float64(n), "s-replay/op")
	b.ReportMetric(float64(replay)/float64(state), "x-state")
}

// timeCmd runs one command with its stdout into a drained pipe and returns
// how long it took.
func timeCmd(b *testing.B, args ...string) time.Duration {
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
	start := time.Now()
	code := run(args, e)
	w.Close()
	<-drained
	took := time.Since(start)
	if code != 0 && code != 5 {
		b.Fatalf("%v: exit %d", args, code)
	}
	return took
}
