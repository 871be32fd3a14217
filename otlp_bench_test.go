package main

import (
	"io"
	"testing"
)

// BenchmarkExportOTLP compares `export --format otlp` of a generated
// 100k-event recording with `state --json` of it (the target: at most
// 2x). Both load and fold the whole directory; the export also builds and
// encodes every span. Run with -benchtime 3x.
func BenchmarkExportOTLP(b *testing.B) {
	dir := benchReplayDir(b, benchReplayEvents)
	env := &environment{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"state", []string{"state", dir, "--json"}},
		{"otlp", []string{"export", dir, "--format", "otlp"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if code := dispatch(c.args, env); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
