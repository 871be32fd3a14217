package session

import (
	"context"
	"io"
	"io/fs"
	"path/filepath"
	"testing"

	"ohwatch/internal/benchdir"
)

// The peak resident memory of each way a big recording is read, against
// its JSON (rss-peak/json, VmHWM: it counts the log's off-heap blocks,
// which the heap does not). A generated directory of OHWATCH_BENCH_EVENTS
// events, a million by default (1.48 GB of JSON; written once under
// TMPDIR). Run one per process (-benchtime 1x, one -bench name): the peak
// is the process's. The TUI's replay is BenchmarkOpenBig.

// BenchmarkPeakState loads the directory as `state` does (LoadLog).
func BenchmarkPeakState(b *testing.B) {
	dir, size := bigDir(b)
	for b.Loop() {
		_, log, err := LoadLog(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
		if log.Len() == 0 {
			b.Fatal("no events")
		}
	}
	b.ReportMetric(float64(procStatus(b, "VmHWM"))/float64(size), "rss-peak/json")
}

// BenchmarkPeakReplayHeadless replays the directory as `replay
// --headless` does, its lines into io.Discard.
func BenchmarkPeakReplayHeadless(b *testing.B) { peakReplay(b, false) }

// BenchmarkPeakReplayHeadlessJSON is `replay --headless --json`.
func BenchmarkPeakReplayHeadlessJSON(b *testing.B) { peakReplay(b, true) }

func peakReplay(b *testing.B, json bool) {
	dir, size := bigDir(b)
	env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	for b.Loop() {
		if code := Replay(context.Background(), env, Options{Headless: true, JSON: json}, dir); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(procStatus(b, "VmHWM"))/float64(size), "rss-peak/json")
}

// bigDir is the generated directory and the bytes of its JSON.
func bigDir(b *testing.B) (string, int64) {
	dir := benchdir.Dir(b, bigEvents(b))
	// The events' directory may be a link to one written by `ohwatch
	// gen` (the same seed, the same bytes): walk where it leads.
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	err = filepath.WalkDir(real, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "base_state.json" {
			return err
		}
		info, err := d.Info()
		if err == nil {
			size += info.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return dir, size
}
