package conversation

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// steeredModel is a live model waiting for confirmation (the agent's run
// is on: pause and interrupt apply) with steer as its controls.
func steeredModel(t *testing.T, steer *tuitest.Steering) *Conversation {
	t.Helper()
	return newModel(Options{Log: tuitest.WaitingLog(t), Live: true, Feed: make(chan model.Batch), Controls: steer}, 160, 48)
}

func TestPauseAndResumeKeysSendAndShowTheAnswer(t *testing.T) {
	steer := &tuitest.Steering{}
	m := steeredModel(t, steer)
	m, cmd := press(t, m, "p")
	m = runCmd(t, m, cmd)
	if steer.Got() != "pause" || !strings.Contains(m.Flash, "pause accepted") {
		t.Fatalf("p sent %q, footer %q", steer.Got(), m.Flash)
	}
	// R while the conversation waits: a/x answer it, nothing is sent.
	m, _ = press(t, m, "R")
	if steer.Got() != "pause" || !strings.Contains(m.Flash, "resume: the conversation waits for confirmation") || !strings.Contains(m.Flash, "nothing sent") {
		t.Fatalf("R while waiting: sent %q, footer %q", steer.Got(), m.Flash)
	}
	_ = m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "paused"))
	m, cmd = press(t, m, "R")
	m = runCmd(t, m, cmd)
	if steer.Got() != "pause|run" || !strings.Contains(m.Flash, "resume accepted") {
		t.Fatalf("R when paused: sent %q, footer %q", steer.Got(), m.Flash)
	}
	m, _ = press(t, m, "p")
	if !strings.Contains(m.Flash, "pause: the conversation is paused, not running; nothing sent") {
		t.Errorf("p when paused: footer %q", m.Flash)
	}
	steer.Err = errors.New("run refused by the server (409 Conflict): Conversation already running")
	m, cmd = press(t, m, "R")
	m = runCmd(t, m, cmd)
	if !strings.Contains(m.Flash, "resume not done: run refused by the server (409 Conflict)") {
		t.Errorf("a refusal is not shown: %q", m.Flash)
	}
}

func TestInterruptAndPolicyAskFirst(t *testing.T) {
	steer := &tuitest.Steering{}
	d := drive(t, Options{Log: tuitest.WaitingLog(t), Live: true, Feed: make(chan model.Batch), Controls: steer}, 160, 48)
	d.Press("I").Shows("Interrupt the run? [y/n]")
	d.Press("n").Hides("Interrupt the run?").Shows("cancelled")
	if steer.Got() != "" {
		t.Fatalf("n still interrupts: sent %q", steer.Got())
	}
	d.Press("I", "y")
	if steer.Got() != "interrupt" {
		t.Fatalf("I y sent %q", steer.Got())
	}
	d.Press("C").Shows("confirmation policy: 1 never")
	d.Press("3").Shows("Set the confirmation policy to risky:MEDIUM? [y/n]")
	d.Press("y").Shows("confirmation policy set to risky:MEDIUM")
	if steer.Got() != "interrupt|policy risky:MEDIUM" {
		t.Fatalf("sent %q", steer.Got())
	}
}

func TestMessageFieldTakesLinesAndPastesAndSends(t *testing.T) {
	steer := &tuitest.Steering{}
	// Running, nothing pending: the message goes as it is (a pending
	// action is asked about first: steer_pending_test.go).
	d := drive(t, Options{Log: tuitest.WaitingLog(t), Live: true, Feed: make(chan model.Batch), Controls: steer}, 160, 48)
	d.Send(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "running"))
	d.Press("M").Shows("alt+enter new line")
	d.Type("use printf")
	d.Send(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}) // a new line
	d.Send(tea.PasteMsg{Content: "not echo\x1b[31m\nplease"})
	d.Shows("│ use printf", "│ not echo", "│ please")
	d.Press("tab") // append only
	d.Press("enter").Shows("message appended").Hides("alt+enter new line")
	if got := steer.Got(); got != "message use printf\nnot echo\nplease append" {
		t.Fatalf("sent %q", got)
	}
	d.Press("M", "esc").Hides("alt+enter new line").Shows("message not sent")
}

func TestControlsOnARecordingSayWhy(t *testing.T) {
	m := newModel(Options{Log: tuitest.ErrorLog(t)}, 120, 40)
	for _, k := range []string{"p", "R", "I", "M", "C"} {
		m, _ = press(t, m, k)
		if s := screen(m); !strings.Contains(s, "a recording cannot be acted on; nothing sent") {
			t.Errorf("%s on a recording:\n%s", k, s)
		}
	}
}

// TestControlsStayBoundToTheirConversation: an answer is sent through the
// controls of the view it was asked on, even when it arrives after another
// view took the screen.
func TestControlsStayBoundToTheirConversation(t *testing.T) {
	a, b := &tuitest.Steering{}, &tuitest.Steering{}
	ma, mb := steeredModel(t, a), steeredModel(t, b)
	ma, _ = press(t, ma, "I")
	mb, _ = press(t, mb, "p")
	_, cmd := press(t, ma, "y")
	runCmd(t, ma, cmd)
	if a.Got() != "interrupt" || strings.Contains(b.Got(), "interrupt") {
		t.Errorf("a got %q, b got %q", a.Got(), b.Got())
	}
	_ = mb
}
