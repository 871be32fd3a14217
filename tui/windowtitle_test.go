package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/fixtures"
)

// TestWindowTitleSaysTheConversation: the terminal's title names the
// conversation and its status, as the header does, and carries nothing
// from the title that could drive the terminal.
func TestWindowTitleSaysTheConversation(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: recorded(t, fixtures.Echo), Title: "hello \x1b]0;pwned\x07world"}, 80, 24)
	r := NewModel(m)
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	got := r.View().WindowTitle
	if !strings.HasPrefix(got, "✓ hello") || !strings.HasSuffix(got, "world — ohwatch") || strings.ContainsAny(got, "\x1b\x07") {
		t.Fatalf("window title %q", got)
	}
	live := NewModel(attentionModel(t, false))
	if got := live.View().WindowTitle; !strings.HasPrefix(got, "running: confirm") {
		t.Fatalf("window title of a running conversation %q", got)
	}
}

// TestBreadcrumbOfPushedViews: a view opened from the fleet, and a fork
// opened from it, say where they are: fleet › Fix the cache › the fork.
func TestBreadcrumbOfPushedViews(t *testing.T) {
	t.Parallel()
	f := fleetFixtureScreen(t, 120, 40, FleetOptions{})
	r := NewModel(f)
	r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	parent := newModel(Options{Log: recorded(t, fixtures.Echo), Title: "Fix the cache"}, 120, 40)
	r.Update(pushMsg{screen: parent})
	fork := newModel(Options{Log: recorded(t, fixtures.Echo), Title: "fork at #6"}, 120, 40)
	r.Update(pushMsg{screen: fork})
	head := strings.Split(r.View().Content, "\n")[0]
	if !strings.HasPrefix(head, "fleet › Fix the cache › fork at #6") {
		t.Fatalf("the fork's header: %q", head)
	}
	r.Update(popMsg{})
	if head := strings.Split(r.View().Content, "\n")[0]; !strings.HasPrefix(head, "fleet › Fix the cache ·") {
		t.Fatalf("back on the parent: %q", head)
	}
}
