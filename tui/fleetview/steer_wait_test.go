package fleetview

import (
	"strings"
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
	f.rows[f.cursor].Verdict.Status = model.StatusPaused
	msg := pressFleet(f, "R")()
	p, ok := msg.(conversation.ControlProgressMsg)
	if !ok {
		t.Fatalf("R answered %T %+v, want what it waits for", msg, msg)
	}
	next := f.Update(p)
	if view := f.View(); !strings.Contains(view, "resume: “") || !strings.Contains(view, "still finishing the paused run") {
		t.Fatalf("the footer does not say what the resume waits for:\n%s", view)
	}
	if w.Deadline() <= conversation.RespondTimeout {
		t.Errorf("the resume may wait %s, no longer than a plain control", w.Deadline())
	}
	close(w.Release)
	f.Update(next())
	if !strings.Contains(f.flash, "resume accepted") || w.Got() != "run" {
		t.Errorf("after the wait: footer %q, sent %q", f.flash, w.Got())
	}
}
