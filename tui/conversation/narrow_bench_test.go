package conversation

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/tui/internal/tuitest"
)

// finishNarrowing runs a narrowing's command chain to its end, as the
// program would, handing each report to Update.
func finishNarrowing(tb testing.TB, m *Conversation, cmd tea.Cmd) {
	tb.Helper()
	for cmd != nil {
		msg, ok := cmd().(narrowProgressMsg)
		if !ok {
			tb.Fatalf("the narrowing's command returned %T", msg)
		}
		cmd = m.Update(msg)
	}
}

// BenchmarkKeyToFrameNarrowed is BenchmarkKeyToFrame with a narrowing over
// the 1M-event log that keeps few events (the failed terminal runs) or
// none: what a key costs once the narrowing's command has read the log.
func BenchmarkKeyToFrameNarrowed(b *testing.B) {
	const n = 1_000_000
	log := benchLog(b, n)
	for _, q := range []string{"exit:!0", "nosuchwordanywhere"} {
		b.Run(q, func(b *testing.B) {
			m := colourModel(Options{Log: log}, colorprofile.TrueColor, 160, 48)
			finishNarrowing(b, m, m.setNarrowing(q))
			keys := []string{"j", "k", "ctrl+d", "pgdown", "pgup", "g", "G"}
			tuitest.Frames(b, func(k int) {
				if k%64 == 0 {
					m.moveTo((k * 7919) % n)
				}
				m, _ = press(b, m, keys[k%len(keys)])
				_ = m.View()
			})
		})
	}
}

// BenchmarkNarrowUpdate1M is what the enter that puts a narrowing in force
// over the 1M-event log costs in Update: the list placed anew and the
// read of the log handed to a command, not done.
func BenchmarkNarrowUpdate1M(b *testing.B) {
	log := benchLog(b, 1_000_000)
	m := colourModel(Options{Log: log}, colorprofile.TrueColor, 160, 48)
	m.moveTo(500_000)
	b.ReportAllocs()
	for b.Loop() {
		m.openNarrow()
		m.Update(tuitest.KeyMsg("ctrl+u"))
		m.Update(tea.PasteMsg{Content: "nosuchwordanywhere"})
		if cmd := m.Update(tuitest.KeyMsg("enter")); cmd == nil {
			b.Fatal("no command reads the log")
		}
	}
}

// BenchmarkNarrowingScan is the narrowing's read of the 1M-event log, all
// its commands' chunks: every event read once (a word looked for in its
// JSON).
func BenchmarkNarrowingScan(b *testing.B) {
	log := benchLog(b, 1_000_000)
	for b.Loop() {
		n, _ := parseNarrowing("nosuchwordanywhere")
		for from := 0; from < log.Len(); {
			from, _, _ = scanNarrowing(context.Background(), log, n, from, log.Len())
		}
	}
}
