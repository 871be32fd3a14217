package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
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
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: func(ref model.ConversationRef) Steering {
		if ref.Kind != model.SourceServer {
			return nil
		}
		return w
	}})
	f.rows[f.cursor].Verdict.Status = model.StatusPaused
	msg := pressFleet(f, "R")()
	p, ok := msg.(controlProgressMsg)
	if !ok {
		t.Fatalf("R answered %T %+v, want what it waits for", msg, msg)
	}
	next := f.Update(p)
	if view := f.View(); !strings.Contains(view, "resume: “") || !strings.Contains(view, "still finishing the paused run") {
		t.Fatalf("the footer does not say what the resume waits for:\n%s", view)
	}
	if w.deadline <= respondTimeout {
		t.Errorf("the resume may wait %s, no longer than a plain control", w.deadline)
	}
	close(w.release)
	f.Update(next())
	if !strings.Contains(f.flash, "resume accepted") || w.got() != "run" {
		t.Errorf("after the wait: footer %q, sent %q", f.flash, w.got())
	}
}

// TestResumeSaysWhatItWaitsFor: in a conversation's view too, R on a
// conversation whose server is still finishing the paused run says what
// it waits for until the server's answer comes.
func TestResumeSaysWhatItWaitsFor(t *testing.T) {
	w := &waitingSteering{release: make(chan struct{})}
	m := newModel(Options{Log: waitingLog(t), Live: true, Feed: make(chan model.Batch), Controls: w}, 160, 48)
	_ = m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "paused"))
	m, cmd := press(t, m, "R")
	var progress controlProgressMsg
	batch, _ := cmd().(tea.BatchMsg)
	for _, c := range batch {
		if c != nil && !isTick(c) {
			progress, _ = c().(controlProgressMsg)
		}
	}
	if progress.next == nil {
		t.Fatal("R said nothing while the resume waits")
	}
	m.Update(progress)
	if !strings.Contains(m.flash, "resume: the server is still finishing the paused run") {
		t.Fatalf("footer %q", m.flash)
	}
	close(w.release)
	m.Update(progress.next())
	if !strings.Contains(m.flash, "resume accepted") || w.got() != "run" {
		t.Errorf("after the wait: footer %q, sent %q", m.flash, w.got())
	}
}
