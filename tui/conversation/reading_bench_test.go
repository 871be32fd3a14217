package conversation

import (
	"testing"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/internal/fixtures"
	"ohwatch/theme"
	"ohwatch/tui/internal/tuitest"
)

// BenchmarkInspectMessage is enter on an assistant message with a table:
// the inspector opens and its view is built with the markdown (the
// command enter starts, run at once by press), then draws one frame. A frame alone reads the rendering (BenchmarkInspectFrame).
func BenchmarkInspectMessage(b *testing.B) {
	log := tuitest.Recorded(b, fixtures.Plan)
	m := NewConversation(Options{Log: log, Profile: colorprofile.TrueColor, Theme: theme.DarkMode})
	m, _ = send(m, tuitest.WindowSize(160, 48))
	m, _ = press(b, m, "G")
	for b.Loop() {
		next, _ := press(b, m, "enter")
		_ = next.View()
	}
}

// BenchmarkInspectFrame is one frame of the open inspector on that
// message: no markdown is rendered.
func BenchmarkInspectFrame(b *testing.B) {
	log := tuitest.Recorded(b, fixtures.Plan)
	m := NewConversation(Options{Log: log, Profile: colorprofile.TrueColor, Theme: theme.DarkMode})
	m, _ = send(m, tuitest.WindowSize(160, 48))
	m, _ = press(b, m, "G", "enter")
	for b.Loop() {
		_ = m.View()
	}
}
