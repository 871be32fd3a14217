package reducer

import (
	"testing"

	"ohwatch/model"
)

// askScript builds the ask_user flow upstream's response_dispatch.py emits:
// the ask_user ActionEvent, then the AskUserRequestEvent naming it.
func askScript(withStatus bool) (*script, model.Event, model.Event) {
	sc := newScript()
	sc.user()
	act := sc.add("ActionEvent", "agent", &model.Action{ActionKind: "AskUserAction", ToolName: "ask_user", ToolCallID: "call-1", LLMResponseID: "r1"})
	req := sc.add(model.KindAskUserRequest, "agent", &model.AskUserRequest{RequestID: "req-1", ActionID: act.ID, ToolCallID: "call-1",
		Questions: []model.Question{{ID: "auth", Text: "Which auth strategy?", Options: []model.QuestionOption{{ID: "jwt", Label: "JWT"}}}}})
	if withStatus {
		sc.status(model.StatusWaitingForConfirmation)
	}
	return sc, act, req
}

// TestAskUserTable: what each step of the ask_user flow leaves in the
// State, with and without the server's status updates (a recording that
// has none is inferred).
func TestAskUserTable(t *testing.T) {
	for _, withStatus := range []bool{false, true} {
		type step struct {
			name       string
			add        func(sc *script, act, req model.Event)
			wantOpen   bool
			wantStatus string // checked without status updates only
		}
		steps := []step{
			{"asked", func(*script, model.Event, model.Event) {}, true, model.StatusWaitingForConfirmation},
			{"an answer to another request", func(sc *script, _, _ model.Event) {
				sc.add(model.KindAskUserResponse, "user", &model.AskUserResponse{RequestID: "other", Action: model.AskCancel})
			}, true, model.StatusWaitingForConfirmation},
			{"answered", func(sc *script, _, _ model.Event) {
				sc.add(model.KindAskUserResponse, "user", &model.AskUserResponse{RequestID: "req-1", Action: model.AskAccept})
			}, false, model.StatusRunning},
			{"its observation", func(sc *script, act, _ model.Event) {
				sc.add("ObservationEvent", "environment", &model.Observation{ObservationKind: "AskUserObservation", ToolName: "ask_user", ToolCallID: "call-1", ActionID: act.ID})
			}, false, model.StatusRunning},
		}
		sc, act, req := askScript(withStatus)
		for _, st := range steps {
			st.add(sc, act, req)
			s := sc.fold()
			if open := s.Question != nil; open != st.wantOpen {
				t.Fatalf("status updates %v, %s: open %v", withStatus, st.name, open)
			}
			if s.Question != nil && (s.Question.RequestID() != "req-1" || s.Question.Index != 2 || s.Question.Request.Questions[0].Text != "Which auth strategy?") {
				t.Fatalf("%s: %+v", st.name, s.Question)
			}
			if !withStatus && s.Status != st.wantStatus {
				t.Fatalf("%s: status %s, want %s", st.name, s.Status, st.wantStatus)
			}
		}
	}
}

// TestAskUserClosedByItsActionsResult: a question whose ask_user action is
// rejected or errors out is no longer open, though nobody answered it.
func TestAskUserClosedByItsActionsResult(t *testing.T) {
	sc, act, _ := askScript(true)
	sc.add("UserRejectObservation", "user", &model.UserReject{ToolName: "ask_user", ToolCallID: "call-1", ActionID: act.ID})
	if s := sc.fold(); s.Question != nil || len(s.Pending) != 0 {
		t.Fatalf("rejected: %+v", s.Question)
	}
	sc, _, _ = askScript(true)
	sc.add("AgentErrorEvent", "agent", &model.AgentError{ToolName: "ask_user", ToolCallID: "call-1", Error: "boom"})
	if s := sc.fold(); s.Question != nil {
		t.Fatalf("errored: %+v", s.Question)
	}
}

// TestAnalyzerVerdictOnPendingActions: a SecurityAnalysisEvent puts the
// analyzer's risk beside the LLM's on the actions it names, and leaves the
// States before it untouched.
func TestAnalyzerVerdictOnPendingActions(t *testing.T) {
	sc := newScript()
	a1 := sc.action("TerminalAction", "r1", "c1", "LOW")
	sc.action("TerminalAction", "r1", "c2", "LOW")
	before := sc.fold()
	sc.add(model.KindSecurityAnalysis, "environment", &model.SecurityAnalysis{Analyzer: "LLMSecurityAnalyzer", Policy: "ConfirmRisky",
		Risks: []model.ActionRisk{{ActionID: a1.ID, Risk: "HIGH"}}})
	s := sc.fold()
	if p := s.Pending[0]; p.SecurityRisk != "LOW" || p.AnalyzerRisk != "HIGH" || p.Analyzer != "LLMSecurityAnalyzer" {
		t.Fatalf("%+v", p)
	}
	if p := s.Pending[1]; p.AnalyzerRisk != "" {
		t.Fatalf("an action not analysed got %q", p.AnalyzerRisk)
	}
	if before.Pending[0].AnalyzerRisk != "" {
		t.Fatal("an earlier State was changed")
	}
}

// TestWarningsAreWarningsNotErrors: warnings and the iteration limit are
// listed as warnings; no error is counted and the status stays.
func TestWarningsAreWarningsNotErrors(t *testing.T) {
	sc := newScript()
	sc.user()
	sc.status(model.StatusRunning)
	sc.add(model.KindWarning, "environment", &model.Warning{Message: "critic evaluation failed"})
	limit := sc.add(model.KindIterationLimit, "environment", &model.IterationLimit{Iteration: 5, MaxIterations: 5})
	s := sc.fold()
	w := s.Warnings()
	if s.WarningCount != 2 || len(w) != 2 || w[0].Text != "critic evaluation failed" || w[1].Index != 3 || w[1].Kind != limit.Kind {
		t.Fatalf("%+v", w)
	}
	if s.ErrorCount != 0 || s.Status != model.StatusRunning {
		t.Fatalf("errors %d status %s", s.ErrorCount, s.Status)
	}
}
