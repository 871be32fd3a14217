package fleet

import (
	"testing"

	"ohwatch/model"
)

// TestQuestionAttention: an ask_user question raises a question attention
// (a bell, urgent as a confirmation), its text is on the row and the status
// column says the agent asks; the answer lowers it.
func TestQuestionAttention(t *testing.T) {
	f := New()
	c := newConv("s", "a")
	c.live(f)
	act := c.ev("ActionEvent", "agent", &model.Action{ActionKind: "AskUserAction", ToolName: "ask_user", ToolCallID: "call-ask"})
	req := c.ev(model.KindAskUserRequest, "agent", &model.AskUserRequest{RequestID: "req-1", ActionID: act.ID, ToolCallID: "call-ask",
		Questions: []model.Question{{ID: "q", Text: "Which database?"}, {ID: "r", Text: "Why?"}}})
	ch := f.Apply([]model.FleetUpdate{c.events(act, req, c.status(model.StatusWaitingForConfirmation))})
	if len(ch) != 1 || ch[0].Raised != AttnQuestion {
		t.Fatalf("changes %+v", ch)
	}
	r, _ := f.Row(c.ref)
	if r.Attn != AttnQuestion || r.Attn.String() != "question" || r.Question != "Which database? (+1 more)" || ColStatus.Text(r, t0) != "asks you" {
		t.Fatalf("row %+v, status %q", r, ColStatus.Text(r, t0))
	}
	f.Apply([]model.FleetUpdate{c.events(c.ev(model.KindAskUserResponse, "user", &model.AskUserResponse{RequestID: "req-1", Action: model.AskCancel}),
		c.status(model.StatusRunning))})
	if r, _ := f.Row(c.ref); r.Attn != NoAttention || r.Question != "" {
		t.Fatalf("answered: %+v", r)
	}
}
