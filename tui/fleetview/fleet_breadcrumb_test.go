package fleetview

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/fixtures"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// TestBreadcrumbOfPushedViews: a view opened from the fleet, and a fork
// opened from it, say where they are: fleet › Fix the cache › the fork.
func TestBreadcrumbOfPushedViews(t *testing.T) {
	t.Parallel()
	f := fleetFixtureScreen(t, 120, 40, FleetOptions{})
	r := tui.NewModel(f)
	r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	parent := newModel(conversation.Options{Log: tuitest.Recorded(t, fixtures.Echo), Title: "Fix the cache"}, 120, 40)
	r.Update(tui.PushMsg{Screen: parent})
	fork := newModel(conversation.Options{Log: tuitest.Recorded(t, fixtures.Echo), Title: "fork at #6"}, 120, 40)
	r.Update(tui.PushMsg{Screen: fork})
	head := strings.Split(r.View().Content, "\n")[0]
	if !strings.HasPrefix(head, "fleet › Fix the cache › fork at #6") {
		t.Fatalf("the fork's header: %q", head)
	}
	r.Update(tui.PopMsg{})
	if head := strings.Split(r.View().Content, "\n")[0]; !strings.HasPrefix(head, "fleet › Fix the cache ·") {
		t.Fatalf("back on the parent: %q", head)
	}
}
