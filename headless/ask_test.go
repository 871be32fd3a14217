package headless

import (
	"strings"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// questionRecording is a generated conversation (gen.Options.AskUser:
// upstream's ask_user pair) cut where the agent waits on its question.
func questionRecording(t *testing.T) []model.Event {
	evs := testevents.GeneratedWith(t, gen.Options{Events: 40, Seed: 3, AskUser: true})
	for i, ev := range evs {
		if su, ok := ev.Body.(*model.StateUpdate); ok && su.ExecutionStatus == model.StatusWaitingForConfirmation {
			return evs[:i+1]
		}
	}
	t.Fatal("no wait in the generated conversation")
	return nil
}

// TestHeadlessSaysWhatTheAgentAsks: a recording that ends on an open
// question prints the question and its options where a confirmation would
// list its actions (awaiting_answer in JSONL), and exits as a recording
// that ends waiting for the person does: 5, no terminal state.
func TestHeadlessSaysWhatTheAgentAsks(t *testing.T) {
	evs := questionRecording(t)
	r, out := run(t, feedOf(true, evs), Options{Recording: true})
	if r.Exit != ExitNoTerminal || r.Status != model.StatusWaitingForConfirmation {
		t.Fatalf("exit %d status %s\n%s", r.Exit, r.Status, out)
	}
	want := "(asks you: Should a posting stamped exactly at the cutoff count in the balance? [Include it (cutoff is inclusive) / Exclude it (cutoff is exclusive)])"
	if !strings.Contains(out, want) || strings.Contains(out, "awaiting confirmation") {
		t.Fatalf("lines:\n%s", out)
	}
	_, js := run(t, feedOf(true, evs), Options{Recording: true, JSON: true})
	if !strings.Contains(js, `{"type":"awaiting_answer","index":8,"request_id":"`) || !strings.Contains(js, `"options":["Include it (cutoff is inclusive)","Exclude it (cutoff is exclusive)"]`) {
		t.Fatalf("JSON lines:\n%s", js)
	}
}

// TestFleetLineSaysTheAgentAsks: a fleet watch's status line for a
// conversation that waits on a question says so with the question (text
// and JSONL), and --until any does not end on it: the person's turn is not
// a terminal state.
func TestFleetLineSaysTheAgentAsks(t *testing.T) {
	for _, js := range []bool{false, true} {
		w := NewFleetWatch(FleetOptions{Until: UntilAny, JSON: js})
		a := newFconv("a")
		w.Handle([]model.FleetUpdate{a.title("T"), a.conn(model.PhaseLive, false, ""), a.status("running", false)})
		req := model.Event{Kind: model.KindAskUserRequest, ID: "a-req", Source: "agent",
			Body: &model.AskUserRequest{RequestID: "req-1", Questions: []model.Question{{ID: "q", Text: "Which database?"}}}}
		lines, done, _ := w.Handle([]model.FleetUpdate{{Ref: a.ref, Batch: model.Batch{Events: []model.Event{req}}}, a.status(model.StatusWaitingForConfirmation, false)})
		if done || len(lines) != 1 {
			t.Fatalf("json %v: done %v lines %q", js, done, lines)
		}
		want := `  >> a  running -> asks you: Which database?  "T"  [http://127.0.0.1:8000]` + "\n"
		if js {
			want = `"attention":"question","question":"Which database?"`
		}
		if !strings.Contains(lines[0], want) {
			t.Fatalf("json %v: %q, want %q", js, lines[0], want)
		}
	}
}
