package fleetview

import (
	"testing"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// TestFleetFeedWaitIsTold: the command helpers tell a fleet's wait on its
// feed from a command that answers.
func TestFleetFeedWaitIsTold(t *testing.T) {
	f := newFleetScreen(t, 80, 24, FleetOptions{Feed: make(chan []model.FleetUpdate)})
	if w := f.waitFeed(); !tuitest.IsFleetFeedWait(w) {
		t.Errorf("a fleet's feed wait (%s) is not taken for one", tuitest.FuncOf(w))
	}
}
