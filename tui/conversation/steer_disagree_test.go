package conversation

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// agentActionBatch is an action of the agent's, stamped after every status
// of the fixtures.
func agentActionBatch(t *testing.T) BatchMsg {
	return BatchMsg{Batch: model.Batch{Events: []model.Event{tuitest.Decode(t, []byte(
		`{"id":"e0000000-0000-4000-8000-0000000000d1","timestamp":"2026-01-28T14:33:40.000000","source":"agent","thought":[],"action":{"command":"ls","is_input":false,"reset":false,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":"toolu_d1","tool_call":{"id":"toolu_d1","name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":"resp-d1","security_risk":"LOW","kind":"ActionEvent"}`))}}}
}

// TestControlsSendWhenTheEventsDisagreeWithTheStatus: the status says idle
// but the agent's actions keep arriving after it: p and I are sent anyway
// and the footer says what the server answered; with nothing after the
// status, p still says why it sends nothing.
func TestControlsSendWhenTheEventsDisagreeWithTheStatus(t *testing.T) {
	steer := &tuitest.Steering{}
	m := steeredModel(t, steer)
	_ = m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "idle"))
	m, _ = press(t, m, "p")
	if steer.Got() != "" || !strings.Contains(m.Flash, "not running; nothing sent") {
		t.Fatalf("p on a quiet idle: sent %q, footer %q", steer.Got(), m.Flash)
	}
	_ = m.Update(agentActionBatch(t))
	m, cmd := press(t, m, "p")
	m = runCmd(t, m, cmd)
	if steer.Got() != "pause" || !strings.Contains(m.Flash, "sent although the header said idle") || !strings.Contains(m.Flash, "the server answered: pause accepted") {
		t.Fatalf("p while events disagree: sent %q, footer %q", steer.Got(), m.Flash)
	}
	steer.Err = errors.New("interrupt refused by the server (409 Conflict): not running")
	m, cmd = press(t, m, "I", "y")
	m = runCmd(t, m, cmd)
	if steer.Got() != "pause|interrupt" || !strings.Contains(m.Flash, "interrupt not done: sent although the header said idle") || !strings.Contains(m.Flash, "the server answered: interrupt refused by the server (409 Conflict)") {
		t.Fatalf("I y: sent %q, footer %q", steer.Got(), m.Flash)
	}
}

// TestPauseWhileEventsDisagreeThroughTheTerminal: the same on the real
// program, read off the terminal.
func TestPauseWhileEventsDisagreeThroughTheTerminal(t *testing.T) {
	t.Parallel()
	steer := &tuitest.Steering{}
	feed := make(chan model.Batch, 2)
	feed <- statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "idle").Batch
	feed <- agentActionBatch(t).Batch
	log := tuitest.WaitingLog(t)
	m := New(Options{Log: log, Live: true, Feed: feed, NoColor: true, Controls: steer})
	tm := termtest.Start(t, m, 160, 48)
	tm.WaitUntil(t, 5*time.Second, "the action arrived", func() bool { return log.Len() == 10 })
	tm.Send(tea.KeyPressMsg{Code: 'p', Text: "p"})
	tm.WaitFor(t, 5*time.Second, "sent although the header said idle")
	if steer.Got() != "pause" {
		t.Fatalf("sent %q", steer.Got())
	}
	close(feed)
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.Final(t, 5*time.Second)
}
