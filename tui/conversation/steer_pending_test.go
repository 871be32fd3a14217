package conversation

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// effectSteering is a Steering whose server says what a message does to
// pending actions.
type effectSteering struct {
	*tuitest.Steering
	effect  MessageEffect
	version string
}

func (e effectSteering) MessageEffect(context.Context) (MessageEffect, string) {
	return e.effect, e.version
}

// pendingModel is a live view waiting on one action, steered by steer.
func pendingModel(t *testing.T, steer Controls) *Conversation {
	t.Helper()
	return newModel(Options{Log: tuitest.WaitingLog(t), Live: true, Feed: make(chan model.Batch), Controls: steer}, 160, 48)
}

// pendingDrive drives a live view waiting on one action, steered by
// steer; at is the action's place ("#7").
func pendingDrive(t *testing.T, steer Controls) (*tuitest.Driver, string) {
	t.Helper()
	log := tuitest.WaitingLog(t)
	var at []int
	for _, p := range log.Latest().Pending {
		at = append(at, p.Index)
	}
	return drive(t, Options{Log: log, Live: true, Feed: make(chan model.Batch), Controls: steer}, 160, 48), ordinals(at)
}

// sendWhilePending opens M, types text and presses enter, running the
// server's answer about the message's effect.
func sendWhilePending(t *testing.T, m *Conversation, text string) *Conversation {
	t.Helper()
	m, cmd := press(t, m, "M")
	m = runCmd(t, m, cmd)
	m = typeText(t, m, text)
	m, cmd = press(t, m, "enter")
	return runCmd(t, m, cmd)
}

func TestMessageWhilePendingOnAnApprovingServerAsksFirst(t *testing.T) {
	steer := &tuitest.Steering{}
	d, at := pendingDrive(t, effectSteering{steer, MessageEffectApproves, "1.43.1"})
	d.Press("M").Shows("on this server (SDK 1.43.1) a message approves " + at)
	d.Type("do NOT run that").Press("enter")
	if steer.Got() != "" || len(answersOf(steer)) != 0 {
		t.Fatalf("enter sent %q before asking", steer.Got())
	}
	d.Shows("a message approves "+at, "x reject first, then send", "y send (approves)")
	// esc goes back to the field, the text kept.
	d.Press("esc").Shows("alt+enter new line", "│ do NOT run that")
	d.Press("enter", "x")
	if len(answersOf(steer)) != 1 || answersOf(steer)[0] || len(idsOf(steer)[0]) != 1 || steer.Got() != "message do NOT run that +run" {
		t.Fatalf("x: answers %v %v, sent %q", answersOf(steer), idsOf(steer), steer.Got())
	}
	d.Shows("rejected " + at + ", then sent the message: the agent runs with it")
}

func TestMessageWhilePendingOnAnUnknownServerOffersOnlyTheSafePath(t *testing.T) {
	steer := &tuitest.Steering{}
	d, _ := pendingDrive(t, effectSteering{steer, MessageEffectUnknown, "1.64.0"})
	d.Press("M").Type("stop").Press("enter")
	d.Shows("(SDK 1.64.0) a message may approve").Hides("y send")
	d.Press("y").Shows("x reject first, then send")
	if steer.Got() != "" {
		t.Fatalf("y sent %q on an unknown server", steer.Got())
	}
	d.Press("x")
	if len(answersOf(steer)) != 1 || answersOf(steer)[0] || steer.Got() != "message stop +run" {
		t.Fatalf("x: answers %v, sent %q", answersOf(steer), steer.Got())
	}

	// A Steering that cannot say is unknown too.
	plain := &tuitest.Steering{}
	d, _ = pendingDrive(t, plain)
	d.Press("M").Type("stop").Press("enter").Shows("x reject first, then send").Hides("y send")
}

func TestMessageWhilePendingOnASupersedingServerSays(t *testing.T) {
	steer := &tuitest.Steering{}
	m := pendingModel(t, effectSteering{steer, MessageEffectRejects, "1.70.0"})
	at := ordinals(m.pendingQuestion().indices)
	m = sendWhilePending(t, m, "try another way")
	if !strings.Contains(screen(m), "a message rejects "+at+" (superseded)") {
		t.Fatalf("not said:\n%s", screen(m))
	}
	m, cmd := press(t, m, "y")
	m = runCmd(t, m, cmd)
	if steer.Got() != "message try another way +run" || len(answersOf(steer)) != 0 {
		t.Fatalf("y sent %q, answers %v", steer.Got(), answersOf(steer))
	}
	if !strings.Contains(m.Flash, "message sent: it rejected "+at+" as superseded; the agent runs with it") {
		t.Errorf("footer: %q", m.Flash)
	}
}

func TestMessageWithNothingPendingSaysTheAgentRuns(t *testing.T) {
	steer := &tuitest.Steering{}
	m := pendingModel(t, steer)
	_ = m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "running"))
	m = sendWhilePending(t, m, "hello")
	if steer.Got() != "message hello +run" || !strings.Contains(m.Flash, "message sent: the agent runs with it") {
		t.Fatalf("sent %q, footer %q", steer.Got(), m.Flash)
	}
}

// TestMessageWhilePendingThroughTheTerminal: the same question on the real
// program, read off the terminal.
func TestMessageWhilePendingThroughTheTerminal(t *testing.T) {
	t.Parallel()
	steer := &tuitest.Steering{}
	feed := make(chan model.Batch)
	m := New(Options{Log: tuitest.WaitingLog(t), Live: true, Feed: feed, NoColor: true,
		Controls: effectSteering{steer, MessageEffectApproves, "1.43.1"}})
	tm := termtest.Start(t, m, 160, 48)
	tm.WaitFor(t, 5*time.Second, "waiting")
	tm.Send(tea.KeyPressMsg{Code: 'M', Text: "M"})
	tm.WaitFor(t, 5*time.Second, "(SDK 1.43.1) a message approves")
	tm.Type("no")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.WaitFor(t, 5*time.Second, "x reject first, then send")
	tm.Send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	tm.WaitFor(t, 5*time.Second, "then sent the message")
	if steer.Got() != "message no +run" || len(answersOf(steer)) != 1 || answersOf(steer)[0] {
		t.Fatalf("sent %q, answers %v", steer.Got(), answersOf(steer))
	}
	close(feed)
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.Final(t, 5*time.Second)
}
