package fleetview

import (
	"testing"

	"ohwatch/model"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// TestFleetResumeSaysWhatItWaitsFor: R on a row whose server is still
// finishing the paused run shows, in the footer, what the resume waits
// for while it does, then the server's answer; the wait is given longer
// than a plain control.
func TestFleetResumeSaysWhatItWaitsFor(t *testing.T) {
	w := tuitest.NewWaitingSteering()
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: func(ref model.ConversationRef) conversation.Steering {
		if ref.Kind != model.SourceServer {
			return nil
		}
		return w
	}})
	// The driver reads the screen and moves the cursor; R's commands,
	// which wait for the server, are run here by hand.
	d := drive(t, f, 300, 48)
	feedFleet(f, []model.FleetUpdate{eventsUp(fleetRef(fleetServer, "9a8b7c6d"), statusEvent("g-paused", model.StatusPaused, fleetNow))})
	selectRow(t, d, "Fix the ttlcache eviction under load")
	msg := pressFleet(f, "R")()
	p, ok := msg.(conversation.ControlProgressMsg)
	if !ok {
		t.Fatalf("R answered %T %+v, want what it waits for", msg, msg)
	}
	next := f.Update(p)
	d.Shows("resume: “Fix the ttlcache eviction under load”", "still finishing the paused run")
	if w.Deadline() <= conversation.RespondTimeout {
		t.Errorf("the resume may wait %s, no longer than a plain control", w.Deadline())
	}
	close(w.Release)
	f.Update(next())
	d.Shows("resume accepted")
	if w.Got() != "run" {
		t.Errorf("after the wait: sent %q", w.Got())
	}
}
