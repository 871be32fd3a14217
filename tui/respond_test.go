package tui

import (
	"context"
	"strings"
	"sync"
	"testing"

	"ohwatch/model"
)

// fakeControls records the answers sent to a live conversation.
type fakeControls struct {
	mu      sync.Mutex
	answers []bool
}

func (f *fakeControls) Respond(_ context.Context, accept bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, accept)
	return nil
}

func TestAcceptRejectKeys(t *testing.T) {
	ctl := &fakeControls{}
	feed := make(chan model.Batch)
	m := newModel(Options{Log: waitingLog(t), Live: true, Feed: feed, Controls: ctl}, 160, 48)
	if m.state().Status != model.StatusWaitingForConfirmation {
		t.Fatalf("fixture status %q", m.state().Status)
	}
	m, _ = press(t, m, "a")
	if m.input.kind != promptConfirm || !m.input.accept {
		t.Fatal("a does not ask first")
	}
	s := screen(m)
	if !strings.Contains(s, "Accept 1 pending action? [y/n]") || !strings.Contains(s, "a message sent while waiting also approves") {
		t.Fatalf("the prompt does not warn about the upstream caveat:\n%s", s)
	}
	m, _ = press(t, m, "n")
	if len(ctl.answers) != 0 || m.input.active() {
		t.Fatal("n still answers")
	}
	m, cmd := press(t, m, "x", "y")
	m = runCmd(t, m, cmd)
	if len(ctl.answers) != 1 || ctl.answers[0] {
		t.Fatalf("x y: answers %v", ctl.answers)
	}
	m, cmd = press(t, m, "a", "y")
	runCmd(t, m, cmd)
	if len(ctl.answers) != 2 || !ctl.answers[1] {
		t.Fatalf("a y: answers %v", ctl.answers)
	}
	// The conversation waits now: a answers even with the cursor in the past.
	m, _ = press(t, m, "g", "a")
	if !m.input.active() {
		t.Fatal("a with the cursor in the past does not ask")
	}
	m, _ = press(t, m, "n")
	// Once it runs again, a and x only explain why they do nothing.
	m, _ = send(m, batchMsg{batch: model.Batch{Events: []model.Event{decode(t, []byte(stateUpdate(
		"c0000000-0000-4000-8000-000000000002", "2026-01-28T14:33:36.000000", "execution_status", "running")))}}})
	m, _ = press(t, m, "a")
	if m.input.active() {
		t.Fatal("a outside waiting_for_confirmation opens the prompt")
	}
	// A replay cannot be answered.
	replay := newModel(Options{Log: waitingLog(t)}, 160, 48)
	replay, _ = press(t, replay, "G", "a")
	if replay.input.active() {
		t.Fatal("a in a replay opens the prompt")
	}
}
