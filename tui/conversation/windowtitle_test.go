package conversation

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/fixtures"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestWindowTitleSaysTheConversation: the terminal's title names the
// conversation and its status, as the header does, and carries nothing
// from the title that could drive the terminal.
func TestWindowTitleSaysTheConversation(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Echo), Title: "hello \x1b]0;pwned\x07world"}, 80, 24)
	r := tui.NewModel(m)
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	got := r.View().WindowTitle
	if !strings.HasPrefix(got, "✓ hello") || !strings.HasSuffix(got, "world — ohwatch") || strings.ContainsAny(got, "\x1b\x07") {
		t.Fatalf("window title %q", got)
	}
	live := tui.NewModel(attentionModel(t, false))
	if got := live.View().WindowTitle; !strings.HasPrefix(got, "running: confirm") {
		t.Fatalf("window title of a running conversation %q", got)
	}
}
