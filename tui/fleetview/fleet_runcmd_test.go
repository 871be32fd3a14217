package fleetview

import (
	tea "charm.land/bubbletea/v2"

	"testing"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// TestFleetFeedWaitIsTold: the command helpers tell a fleet's wait on its
// feed from a command that answers.
func TestFleetFeedWaitIsTold(t *testing.T) {
	f := newFleetScreen(t, 80, 24, FleetOptions{Feed: make(chan []model.FleetUpdate)})
	// Init's batch holds the wait on the feed; a batch's command answers
	// with its children without running them.
	waits := 0
	for _, c := range f.Init()().(tea.BatchMsg) {
		if c != nil && tuitest.IsFleetFeedWait(c) {
			waits++
		}
	}
	if waits != 1 {
		t.Errorf("%d of Init's commands are taken for the fleet's feed wait; want 1", waits)
	}
}
