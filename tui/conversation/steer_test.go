package conversation

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// fakeSteering records the controls sent to it.
type fakeSteering struct {
	fakeControls
	mu   sync.Mutex
	sent []string
	err  error
}

func (f *fakeSteering) record(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, s)
	return f.err
}

func (f *fakeSteering) Pause(context.Context) error     { return f.record("pause") }
func (f *fakeSteering) Run(context.Context) error       { return f.record("run") }
func (f *fakeSteering) Interrupt(context.Context) error { return f.record("interrupt") }
func (f *fakeSteering) Message(_ context.Context, text string, run bool) error {
	return f.record("message " + text + map[bool]string{true: " +run", false: " append"}[run])
}
func (f *fakeSteering) Policy(_ context.Context, p string) (string, error) {
	return p, f.record("policy " + p)
}

func (f *fakeSteering) got() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.sent, "|")
}

// steeredModel is a live model waiting for confirmation (the agent's run
// is on: pause and interrupt apply) with steer as its controls.
func steeredModel(t *testing.T, steer *fakeSteering) *Conversation {
	t.Helper()
	return newModel(Options{Log: tuitest.WaitingLog(t), Live: true, Feed: make(chan model.Batch), Controls: steer}, 160, 48)
}

func TestPauseAndResumeKeysSendAndShowTheAnswer(t *testing.T) {
	steer := &fakeSteering{}
	m := steeredModel(t, steer)
	m, cmd := press(t, m, "p")
	m = runCmd(t, m, cmd)
	if steer.got() != "pause" || !strings.Contains(m.Flash, "pause accepted") {
		t.Fatalf("p sent %q, footer %q", steer.got(), m.Flash)
	}
	// R while the conversation waits: a/x answer it, nothing is sent.
	m, _ = press(t, m, "R")
	if steer.got() != "pause" || !strings.Contains(m.Flash, "resume: the conversation waits for confirmation") || !strings.Contains(m.Flash, "nothing sent") {
		t.Fatalf("R while waiting: sent %q, footer %q", steer.got(), m.Flash)
	}
	_ = m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "paused"))
	m, cmd = press(t, m, "R")
	m = runCmd(t, m, cmd)
	if steer.got() != "pause|run" || !strings.Contains(m.Flash, "resume accepted") {
		t.Fatalf("R when paused: sent %q, footer %q", steer.got(), m.Flash)
	}
	m, _ = press(t, m, "p")
	if !strings.Contains(m.Flash, "pause: the conversation is paused, not running; nothing sent") {
		t.Errorf("p when paused: footer %q", m.Flash)
	}
	steer.err = errors.New("run refused by the server (409 Conflict): Conversation already running")
	m, cmd = press(t, m, "R")
	m = runCmd(t, m, cmd)
	if !strings.Contains(m.Flash, "resume not done: run refused by the server (409 Conflict)") {
		t.Errorf("a refusal is not shown: %q", m.Flash)
	}
}

func TestInterruptAndPolicyAskFirst(t *testing.T) {
	steer := &fakeSteering{}
	m := steeredModel(t, steer)
	m, _ = press(t, m, "I")
	if !strings.Contains(screen(m), "Interrupt the run? [y/n]") {
		t.Fatalf("I does not ask:\n%s", screen(m))
	}
	m, _ = press(t, m, "n")
	if steer.got() != "" || strings.Contains(screen(m), "Interrupt the run?") {
		t.Fatalf("n still interrupts:\n%s", screen(m))
	}
	m, cmd := press(t, m, "I", "y")
	m = runCmd(t, m, cmd)
	if steer.got() != "interrupt" {
		t.Fatalf("I y sent %q", steer.got())
	}
	m, _ = press(t, m, "C")
	if !strings.Contains(screen(m), "confirmation policy: 1 never") {
		t.Fatalf("C offers no policies:\n%s", screen(m))
	}
	m, _ = press(t, m, "3")
	if !strings.Contains(screen(m), "Set the confirmation policy to risky:MEDIUM? [y/n]") {
		t.Fatalf("the pick is not asked about:\n%s", screen(m))
	}
	m, cmd = press(t, m, "y")
	m = runCmd(t, m, cmd)
	if steer.got() != "interrupt|policy risky:MEDIUM" || !strings.Contains(m.Flash, "confirmation policy set to risky:MEDIUM") {
		t.Fatalf("sent %q, footer %q", steer.got(), m.Flash)
	}
}

func TestMessageFieldTakesLinesAndPastesAndSends(t *testing.T) {
	steer := &fakeSteering{}
	m := steeredModel(t, steer)
	// Running, nothing pending: the message goes as it is (a pending
	// action is asked about first: steer_pending_test.go).
	_ = m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "running"))
	m, _ = press(t, m, "M")
	if !strings.Contains(screen(m), "alt+enter new line") {
		t.Fatalf("M does not open the message field:\n%s", screen(m))
	}
	m = typeText(t, m, "use printf")
	_ = m.Update(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}) // a new line
	_ = m.Update(tea.PasteMsg{Content: "not echo\x1b[31m\nplease"})
	if s := screen(m); !strings.Contains(s, "use printf") || !strings.Contains(s, "please") {
		t.Fatalf("the field does not show its lines:\n%s", s)
	}
	m, _ = press(t, m, "tab") // append only
	m, cmd := press(t, m, "enter")
	m = runCmd(t, m, cmd)
	if got := steer.got(); got != "message use printf\nnot echo\nplease append" {
		t.Fatalf("sent %q", got)
	}
	if !strings.Contains(m.Flash, "message appended") {
		t.Errorf("footer %q", m.Flash)
	}
	m, _ = press(t, m, "M", "esc")
	if s := screen(m); strings.Contains(s, "alt+enter new line") || !strings.Contains(s, "message not sent") {
		t.Errorf("esc does not cancel:\n%s", s)
	}
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
	a, b := &fakeSteering{}, &fakeSteering{}
	ma, mb := steeredModel(t, a), steeredModel(t, b)
	ma, _ = press(t, ma, "I")
	mb, _ = press(t, mb, "p")
	_, cmd := press(t, ma, "y")
	runCmd(t, ma, cmd)
	if a.got() != "interrupt" || strings.Contains(b.got(), "interrupt") {
		t.Errorf("a got %q, b got %q", a.got(), b.got())
	}
	_ = mb
}
