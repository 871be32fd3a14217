package sanitize

import (
	"bytes"
	"encoding/json"
	"testing"

	"os"
	"path/filepath"
)

// BenchmarkCompactRace races appendCompact (validate with jsonx, then copy
// the runs between whitespace) against json.Compact over the events of
// the project's recordings (sdk, situations, cli): the compaction every
// terminal-safe raw event (inspector, JSON lines) starts with.
//
//	nice go test -run '^$' -bench CompactRace -count 3 ./internal/sanitize
//	GOEXPERIMENT=jsonv2 nice go test -run '^$' -bench CompactRace -count 3 ./internal/sanitize
func BenchmarkCompactRace(b *testing.B) {
	var raws [][]byte
	var total int64
	for _, name := range []string{"sdk", "situations", "cli"} {
		paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", name, "events", "*.json"))
		for _, p := range paths {
			raw, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			raws = append(raws, raw)
			total += int64(len(raw))
		}
	}
	b.Run("hand-written", func(b *testing.B) {
		b.SetBytes(total)
		var dst []byte
		for b.Loop() {
			for _, raw := range raws {
				var ok bool
				if dst, ok = appendCompact(dst[:0], raw); !ok {
					b.Fatal("invalid")
				}
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(total)
		var buf bytes.Buffer
		for b.Loop() {
			for _, raw := range raws {
				buf.Reset()
				if err := json.Compact(&buf, raw); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
