package headless

import (
	"encoding/json"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// BenchmarkEventJSONRace races the hand-written JSON line writer
// (eventJSON) against json.Marshal of the same eventLine (its event made
// terminal-safe first, as the line needs), over the events of a generated
// 20k-event conversation, as `replay --headless --json` writes them:
//
//	nice go test -run '^$' -bench EventJSONRace -count 3 ./headless
//	GOEXPERIMENT=jsonv2 nice go test -run '^$' -bench EventJSONRace -count 3 ./headless
//
// Figures are in docs/performance.md.
func BenchmarkEventJSONRace(b *testing.B) {
	var raws [][]byte
	var lines []eventLine
	var total int64
	for raw := range gen.Events(gen.Options{Events: 20000, Seed: 1}) {
		ev, err := model.Decode(raw)
		if err != nil {
			b.Fatal(err)
		}
		raws = append(raws, raw)
		lines = append(lines, eventLine{Type: "event", Index: len(lines), N: 20000, ID: ev.ID, Kind: ev.Kind,
			Source: ev.Source, Timestamp: "2026-01-02T03:04:05.123456", Summary: sanitize.Line(ev.Summary)})
		total += int64(len(raw))
	}
	b.Run("hand-written", func(b *testing.B) {
		var e eventJSON
		b.SetBytes(total)
		for b.Loop() {
			for i, raw := range raws {
				e.append(lines[i], raw, true)
			}
		}
	})
	for name, marshal := range eventLineRivals {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(total)
			for b.Loop() {
				for i, raw := range raws {
					l := lines[i]
					safe, ok := sanitize.JSON(raw)
					if !ok {
						b.Fatal("invalid")
					}
					l.Event = safe
					if _, err := marshal(l); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// eventLineRivals write an eventLine; a file built with
// GOEXPERIMENT=jsonv2 adds encoding/json/v2.
var eventLineRivals = map[string]func(eventLine) ([]byte, error){
	"encoding-json": func(l eventLine) ([]byte, error) { return json.Marshal(l) },
}
