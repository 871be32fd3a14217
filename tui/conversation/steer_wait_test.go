package conversation

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// TestResumeSaysWhatItWaitsFor: in a conversation's view too, R on a
// conversation whose server is still finishing the paused run says what
// it waits for until the server's answer comes.
func TestResumeSaysWhatItWaitsFor(t *testing.T) {
	w := tuitest.NewWaitingSteering()
	m := newModel(Options{Log: tuitest.WaitingLog(t), Live: true, Feed: make(chan model.Batch), Controls: w}, 160, 48)
	_ = m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "paused"))
	m, cmd := press(t, m, "R")
	var progress ControlProgressMsg
	batch, _ := cmd().(tea.BatchMsg)
	for _, c := range batch {
		if c != nil && !tuitest.IsTick(c) {
			progress, _ = c().(ControlProgressMsg)
		}
	}
	if progress.Next == nil {
		t.Fatal("R said nothing while the resume waits")
	}
	m.Update(progress)
	if !strings.Contains(m.Flash, "resume: the server is still finishing the paused run") {
		t.Fatalf("footer %q", m.Flash)
	}
	close(w.Release)
	m.Update(progress.Next())
	if !strings.Contains(m.Flash, "resume accepted") || w.Got() != "run" {
		t.Errorf("after the wait: footer %q, sent %q", m.Flash, w.Got())
	}
}
