package conversation

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// answersOf is the answers c recorded, in order.
func answersOf(c interface{ Answers() ([]bool, [][]string) }) []bool {
	answers, _ := c.Answers()
	return answers
}

// idsOf is the actions each answer c recorded named.
func idsOf(c interface{ Answers() ([]bool, [][]string) }) [][]string {
	_, ids := c.Answers()
	return ids
}

// statusBatch is a batch with one per-field execution_status update.
func statusBatch(t *testing.T, id, status string) BatchMsg {
	return BatchMsg{Batch: model.Batch{Events: []model.Event{tuitest.Decode(t, []byte(tuitest.StateUpdate(
		id, "2026-01-28T14:33:36.000000", "execution_status", status)))}}}
}

// waitingModel is a live model of the real confirmation recording waiting
// for approval of its one HIGH-risk action.
func waitingModel(t *testing.T, ctl Controls) (*Conversation, []string) {
	t.Helper()
	m := newModel(Options{Log: tuitest.WaitingLog(t), Live: true, Feed: make(chan model.Batch), Controls: ctl}, 160, 48)
	st := m.Log.Latest()
	if st.Status != model.StatusWaitingForConfirmation || len(st.Pending) != 1 {
		t.Fatalf("fixture: status %q, %d pending", st.Status, len(st.Pending))
	}
	return m, []string{st.Pending[0].ID}
}

// waitingDrive drives a live view of the real confirmation recording
// waiting for approval of its one HIGH-risk action: ids are that action's,
// at its place ("#7").
func waitingDrive(t *testing.T, ctl Controls) (d *tuitest.Driver, ids []string, at string) {
	t.Helper()
	log := tuitest.WaitingLog(t)
	st := log.Latest()
	if st.Status != model.StatusWaitingForConfirmation || len(st.Pending) != 1 {
		t.Fatalf("fixture: status %q, %d pending", st.Status, len(st.Pending))
	}
	ids, at = []string{st.Pending[0].ID}, tui.Ordinal(st.Pending[0].Index)
	return drive(t, Options{Log: log, Live: true, Feed: make(chan model.Batch), Controls: ctl}, 160, 48), ids, at
}

func TestAcceptRejectKeys(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		ctl := &tuitest.Controls{}
		d, ids, at := waitingDrive(t, ctl)
		d.Press("a").Shows("Accept pending action "+at+"? [y/n]", "a message may approve them too")
		d.Press("n").Hides("? [y/n]").Shows("cancelled")
		if len(answersOf(ctl)) != 0 {
			t.Fatal("n still answers")
		}
		d.Press("x", "y").Shows("rejected " + at)
		if len(answersOf(ctl)) != 1 || answersOf(ctl)[0] || !slices.Equal(idsOf(ctl)[0], ids) {
			t.Fatalf("x y: answers %v about %v", answersOf(ctl), idsOf(ctl))
		}
		// The conversation waits still (the server has not answered yet): a
		// answers even with the cursor in the past.
		d.Press("g", "a").Shows("Accept pending action " + at + "? [y/n]")
		d.Press("n")
		// A replay cannot be answered.
		replay := drive(t, Options{Log: tuitest.WaitingLog(t)}, 160, 48)
		replay.Press("G", "a").Hides("? [y/n]")
	})
}

// TestQuestionWithdrawnWhenRunningAgain is the stale answer: x opens the
// question, the run resumes, and a later y must not send anything.
func TestQuestionWithdrawnWhenRunningAgain(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		ctl := &tuitest.Controls{}
		d, _, _ := waitingDrive(t, ctl)
		d.Press("x").Shows("? [y/n]")
		d.Send(statusBatch(t, "c0000000-0000-4000-8000-000000000002", "running"))
		d.Hides("? [y/n]").Shows("question withdrawn: the conversation is running, no longer waiting for confirmation")
		d.Press("y")
		if len(answersOf(ctl)) != 0 {
			t.Fatalf("y after the question was withdrawn answered: %v", answersOf(ctl))
		}
		d.Press("a").Hides("? [y/n]")
	})
}

// TestQuestionWithdrawnWhenOtherActionsWait: the conversation still waits,
// but on an action the user was not asked about.
func TestQuestionWithdrawnWhenOtherActionsWait(t *testing.T) {
	t.Parallel()
	ctl := &tuitest.Controls{}
	d, ids, at := waitingDrive(t, ctl)
	d.Press("a").Shows("Accept pending action " + at + "? [y/n]")
	another := (`{"id":"d0000000-0000-4000-8000-000000000001","timestamp":"2026-01-28T14:33:35.000000","source":"agent","thought":[],"action":{"command":"git push --force","is_input":false,"reset":false,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":"toolu_more","tool_call":{"id":"toolu_more","name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":"resp-more","security_risk":"HIGH","summary":"force push","kind":"ActionEvent"}`)
	d.Send(BatchMsg{Batch: model.Batch{Events: []model.Event{tuitest.Decode(t, []byte(another))}}})
	if s := d.Screen(); strings.Contains(s, "? [y/n]") || !strings.Contains(s, "now waits on other actions") {
		t.Fatalf("the question about %v stays open:\n%s", ids, s)
	}
	// Asked again, the question names both.
	d.Press("a").Shows("Accept pending actions "+at+", #", "? [y/n]")
}

// TestAnswerCheckedAgainstTheLiveState: events reached the log behind the
// open question (no batch re-checked it yet); y still sends nothing.
func TestAnswerCheckedAgainstTheLiveState(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		ctl := &tuitest.Controls{}
		m, _ := waitingModel(t, ctl)
		m, _ = press(t, m, "x")
		m.Log.Append(statusBatch(t, "c0000000-0000-4000-8000-000000000003", "running").Batch.Events...)
		m, cmd := press(t, m, "y")
		runCmd(t, m, cmd)
		if len(answersOf(ctl)) != 0 || !strings.Contains(m.Flash, "not sent: the conversation is running") {
			t.Fatalf("answers %v, flash %q", answersOf(ctl), m.Flash)
		}
	})
}

// TestAnswerWithheldByTheServerCheck: Controls found on the server that
// the question is stale and sent nothing; the footer says why.
func TestAnswerWithheldByTheServerCheck(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		ctl := &tuitest.Controls{Err: fmt.Errorf("%w: the conversation is idle, no longer waiting for confirmation", ErrNotSent)}
		m, _ := waitingModel(t, ctl)
		m, cmd := press(t, m, "a", "y")
		m = runCmd(t, m, cmd)
		if !strings.Contains(screen(m), "not sent: the conversation is idle, no longer waiting for confirmation") {
			t.Fatalf("the footer does not say why nothing was sent:\n%s", screen(m))
		}
		ctl.Err = fmt.Errorf("POST /respond_to_confirmation: 500 Internal Server Error")
		m, cmd = press(t, m, "a", "y")
		m = runCmd(t, m, cmd)
		if !strings.Contains(m.Flash, "could not respond: POST") {
			t.Fatalf("flash after a failed answer: %q", m.Flash)
		}
	})
}

// TestNoQuestionWithoutPendingActions: a status update says waiting, but
// no action reached the log: nothing to ask about, nothing sent.
func TestNoQuestionWithoutPendingActions(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		ctl := &tuitest.Controls{}
		d := drive(t, Options{Log: tuitest.Recorded(t, fixtures.Echo), Live: true, Feed: make(chan model.Batch), Controls: ctl}, 80, 24)
		d.Send(statusBatch(t, "c2000000-0000-4000-8000-000000000001", "waiting_for_confirmation"))
		d.Press("a").Shows("no pending action to answer").Hides("? [y/n]")
		d.Press("y")
		if len(answersOf(ctl)) != 0 {
			t.Fatalf("answers %v", answersOf(ctl))
		}
	})
}
