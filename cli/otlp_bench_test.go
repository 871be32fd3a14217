package cli

import (
	"io"
	"testing"

	"ohwatch/internal/benchdir"
	"ohwatch/session"
)

// BenchmarkExportOTLP compares `export --format otlp` of a generated
// 100k-event recording with `state --json` of it (the target: at most
// 2x). Both load and fold the whole directory; the export also builds and
// encodes every span. Run with -benchtime 3x.
func BenchmarkExportOTLP(b *testing.B) {
	dir := benchdir.Dir(b, benchdir.Events)
	env := &session.Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"state", []string{"state", dir, "--json"}},
		{"otlp", []string{"export", dir, "--format", "otlp"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if code := run(c.args, env); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
