package tui

import (
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// BenchmarkKeyToFrameNarrowed is BenchmarkKeyToFrame with a narrowing over
// the 1M-event log that keeps few events (the failed terminal runs) or
// none: what a key costs once the narrowing's answers are memoised (the
// first frame reads every event once).
func BenchmarkKeyToFrameNarrowed(b *testing.B) {
	const n = 1_000_000
	log := benchLog(b, n)
	for _, q := range []string{"exit:!0", "nosuchwordanywhere"} {
		b.Run(q, func(b *testing.B) {
			m := colourModel(Options{Log: log}, colorprofile.TrueColor, 160, 48)
			m.setNarrowing(q)
			keys := []string{"j", "k", "ctrl+d", "pgdown", "pgup", "g", "G"}
			frames(b, func(k int) {
				if k%64 == 0 {
					m.moveTo((k * 7919) % n)
				}
				m, _ = press(b, m, keys[k%len(keys)])
				_ = m.View()
			})
		})
	}
}

// BenchmarkNarrowingFill is the first frame's cost of a narrowing over the
// 1M-event log: every event read once (a word looked for in its JSON).
func BenchmarkNarrowingFill(b *testing.B) {
	log := benchLog(b, 1_000_000)
	for b.Loop() {
		n, _ := parseNarrowing("nosuchwordanywhere")
		n.fill(log)
	}
}
