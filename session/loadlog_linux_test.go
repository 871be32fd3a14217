package session

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"ohwatch/internal/benchdir"
)

// BenchmarkLoadLog loads the generated 100k-event directory as `state`,
// `export` and `compare` do (LoadLog) and reports the process's peak
// resident memory against the bytes of the directory's JSON
// (rss-peak/json). Run it once per process (-benchtime 1x): the peak is
// the process's. LoadLog once held every decoded event, and the buffers
// they were read into, until the last was read, to append them at once;
// appending each batch as it comes needs little more than the log keeps.
func BenchmarkLoadLog(b *testing.B) {
	dir := benchdir.Dir(b, benchdir.Events)
	var size int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
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
	for b.Loop() {
		start := time.Now()
		_, log, err := LoadLog(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "load-s")
		if log.Len() != benchdir.Events {
			b.Fatalf("%d events, want %d", log.Len(), benchdir.Events)
		}
	}
	b.ReportMetric(float64(procStatus(b, "VmHWM"))/float64(size), "rss-peak/json")
}
