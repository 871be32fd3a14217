package fleetview

import (
	"context"
	"strings"
	"testing"
	"time"

	"ohwatch/model"
	"ohwatch/tui/conversation"
)

// waitingSteering is a Steering whose resume waits for the server: it
// says a line, then waits until released.
type waitingSteering struct {
	fakeSteering
	release  chan struct{}
	deadline time.Duration // the time its context gave it
}

func (w *waitingSteering) RunWaiting(ctx context.Context, say func(string)) error {
	if d, ok := ctx.Deadline(); ok {
		w.deadline = time.Until(d)
	}
	say("the server is still finishing the paused run")
	<-w.release
	return w.record("run")
}

// TestFleetResumeSaysWhatItWaitsFor: R on a row whose server is still
// finishing the paused run shows, in the footer, what the resume waits
// for while it does, then the server's answer; the wait is given longer
// than a plain control.
func TestFleetResumeSaysWhatItWaitsFor(t *testing.T) {
	w := &waitingSteering{release: make(chan struct{})}
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
	if w.deadline <= conversation.RespondTimeout {
		t.Errorf("the resume may wait %s, no longer than a plain control", w.deadline)
	}
	close(w.release)
	f.Update(next())
	if !strings.Contains(f.flash, "resume accepted") || w.got() != "run" {
		t.Errorf("after the wait: footer %q, sent %q", f.flash, w.got())
	}
}
