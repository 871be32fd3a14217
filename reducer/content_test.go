package reducer

import (
	"reflect"
	"testing"

	"ohwatch/model"
)

func TestPendingActionsAndSteps(t *testing.T) {
	sc := newScript()
	sc.user()
	a1 := sc.action("TerminalAction", "r1", "c1", "LOW") // parallel calls of one response
	a2 := sc.action("FileEditorAction", "r1", "c2", "LOW")
	a3 := sc.action("TerminalAction", "r1", "c3", "MEDIUM")
	sc.add("ActionEvent", "agent", &model.Action{ToolName: "terminal", ToolCallID: "c4", LLMResponseID: "r1"}) // null action: not pending
	s := sc.fold()
	if len(s.Pending) != 3 || s.Iteration != 1 || s.Steps != 1 {
		t.Fatalf("pending %d iteration %d steps %d, want 3/1/1", len(s.Pending), s.Iteration, s.Steps)
	}
	held := s.Pending
	sc.observe("TerminalObservation", a1)
	sc.add("AgentErrorEvent", "agent", &model.AgentError{ToolName: "file_editor", ToolCallID: "c2", Error: "boom"})
	s = sc.fold()
	if len(s.Pending) != 1 || s.Pending[0].ID != a3.ID || s.Pending[0].SecurityRisk != "MEDIUM" || s.Pending[0].Index != 3 {
		t.Fatalf("pending %+v, want only %s", s.Pending, a3.ID)
	}
	if len(held) != 3 || held[0].ID != a1.ID || held[1].ID != a2.ID {
		t.Fatalf("an earlier State's pending list was changed: %+v", held)
	}
	if s.ErrorCount != 1 || s.Errors()[0].Kind != "AgentErrorEvent" {
		t.Fatalf("errors %+v", s.Errors())
	}
	sc.add("UserRejectObservation", "user", &model.UserReject{ActionID: a3.ID, ToolCallID: "c3", RejectionSource: "hook"})
	sc.agentText("r2")
	sc.user()
	sc.action("TerminalAction", "r3", "c5", "LOW")
	s = sc.fold()
	if len(s.Pending) != 1 || s.Iteration != 1 || s.Steps != 3 {
		t.Fatalf("pending %d iteration %d steps %d, want 1/1/3", len(s.Pending), s.Iteration, s.Steps)
	}
}

func TestObservationErrorsAreCounted(t *testing.T) {
	sc := newScript()
	a := sc.action("TerminalAction", "r", "c", "LOW")
	sc.add("ObservationEvent", "environment", &model.Observation{ObservationKind: "TerminalObservation", ActionID: a.ID, IsError: true})
	s := sc.fold()
	if s.ErrorCount != 1 || s.Errors()[0].Index != 1 || s.Errors()[0].Kind != "ObservationEvent" {
		t.Fatalf("errors %+v", s.Errors())
	}
}

func TestTaskList(t *testing.T) {
	plan := []model.Task{{Title: "a", Status: "todo"}, {Title: "b", Notes: "n", Status: "in_progress"}}
	sc := newScript()
	sc.user()
	a := sc.add("ActionEvent", "agent", &model.Action{ActionKind: "TaskTrackerAction", ToolName: "task_tracker", ToolCallID: "c1", LLMResponseID: "r1", TaskCommand: "plan", Plan: plan})
	s := sc.fold()
	want := []TaskItem{{Title: "a", Status: "todo"}, {Title: "b", Notes: "n", Status: "in_progress"}}
	if !reflect.DeepEqual(s.Tasks.Tentative, want) || s.Tasks.TentativeAt != 1 || s.Tasks.ChangedAt != -1 {
		t.Fatalf("tentative %+v", s.Tasks)
	}
	sc.add("ObservationEvent", "environment", &model.Observation{ObservationKind: "TaskTrackerObservation", ActionID: a.ID, TaskCommand: "plan", TaskList: plan, HasTaskList: true})
	s = sc.fold()
	if !reflect.DeepEqual(s.Tasks.Items, want) || s.Tasks.ChangedAt != 2 || s.Tasks.Tentative != nil || s.Tasks.TentativeAt != -1 {
		t.Fatalf("tasks %+v", s.Tasks)
	}
	// An error observation leaves the list alone; a view with an empty
	// list empties it.
	sc.add("ObservationEvent", "environment", &model.Observation{ObservationKind: "TaskTrackerObservation", IsError: true, HasTaskList: true})
	if s = sc.fold(); len(s.Tasks.Items) != 2 {
		t.Fatalf("an error observation changed the list: %+v", s.Tasks)
	}
	sc.add("ObservationEvent", "environment", &model.Observation{ObservationKind: "TaskTrackerObservation", TaskCommand: "view", HasTaskList: true})
	if s = sc.fold(); len(s.Tasks.Items) != 0 || s.Tasks.ChangedAt != 4 {
		t.Fatalf("empty view: %+v", s.Tasks)
	}
}

func TestCondensationForgetsButKeeps(t *testing.T) {
	sc := newScript()
	sc.add("SystemPromptEvent", "agent", &model.SystemPrompt{})
	u := sc.user()
	a := sc.action("TerminalAction", "r1", "c1", "LOW")
	o := sc.observe("TerminalObservation", a)
	sc.add("CondensationRequest", "environment", &model.CondensationRequest{})
	s := sc.fold()
	if s.HistoryLen() != 4 {
		t.Fatalf("history %d, want 4", s.HistoryLen())
	}
	sc.add("Condensation", "environment", &model.Condensation{ForgottenIDs: []string{a.ID, o.ID, a.ID}, LLMResponseID: "cond-1"})
	s = sc.fold()
	if !s.Forgotten(a.ID) || !s.Forgotten(o.ID) || s.Forgotten(u.ID) {
		t.Fatal("wrong forgotten set")
	}
	if s.HistoryLen() != 2 || s.Steps != 1 {
		t.Fatalf("history %d steps %d, want 2/1", s.HistoryLen(), s.Steps)
	}
	sc.add("Condensation", "environment", &model.Condensation{ForgottenIDs: []string{u.ID}})
	if s = sc.fold(); s.HistoryLen() != 1 {
		t.Fatalf("history %d after a second condensation, want 1", s.HistoryLen())
	}
}

func TestKindsAndUnknownKinds(t *testing.T) {
	sc := newScript()
	sc.user()
	sc.user()
	sc.add("FancyNewEvent", "agent", &model.Unknown{})
	sc.add("FancyNewEvent", "agent", &model.Unknown{})
	sc.add("ActionEvent", "agent", &model.Unknown{Reason: "tool_call_id is not a string"})
	sc.add("", "agent", &model.Unknown{Reason: "no kind"})
	s := sc.fold()
	wantKinds := map[string]int{"MessageEvent": 2, "FancyNewEvent": 2, "ActionEvent": 1, "": 1}
	if got := s.Kinds(); !reflect.DeepEqual(got, wantKinds) {
		t.Fatalf("kinds %v, want %v", got, wantKinds)
	}
	wantUnknown := map[string]int{"FancyNewEvent": 2, "ActionEvent": 1, "": 1}
	if got := s.UnknownKinds(); !reflect.DeepEqual(got, wantUnknown) {
		t.Fatalf("unknown kinds %v, want %v", got, wantUnknown)
	}
	if s.Applied != 6 {
		t.Fatalf("applied %d", s.Applied)
	}
}

func TestACPToolCallSecondEventReplacesFirst(t *testing.T) {
	sc := newScript()
	sc.add("ACPToolCallEvent", "agent", &model.ACPToolCall{ToolCallID: "t1", Title: "Read file", Status: "started"})
	sc.add("ACPToolCallEvent", "agent", &model.ACPToolCall{ToolCallID: "t2", Title: "Run tests", Status: "started"})
	sc.add("ACPToolCallEvent", "agent", &model.ACPToolCall{ToolCallID: "t1", Title: "Read file", Status: "completed"})
	sc.add("ACPToolCallEvent", "agent", &model.ACPToolCall{ToolCallID: "t2", Title: "Run tests", Status: "failed", IsError: true})
	s := sc.fold()
	want := []ACPCall{
		{ToolCallID: "t1", Title: "Read file", Status: "completed"},
		{ToolCallID: "t2", Title: "Run tests", Status: "failed", IsError: true},
	}
	if got := s.ACPCalls(); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls %+v, want %+v", got, want)
	}
	if s.ErrorCount != 1 {
		t.Fatalf("errors %d", s.ErrorCount)
	}
}

func TestApplyLeavesItsInputUnchanged(t *testing.T) {
	sc := newScript()
	sc.user()
	a := sc.action("TerminalAction", "r1", "c1", "HIGH")
	before := sc.fold()
	snapshot := before
	pending := append([]PendingAction(nil), before.Pending...)
	_ = Apply(before, sc.observe("TerminalObservation", a))
	_ = Apply(before, sc.add("ConversationErrorEvent", "environment", &model.ConversationError{Code: "x"}))
	if d := diffState(before, snapshot, nil); d != "" || !reflect.DeepEqual(before.Pending, pending) {
		t.Fatalf("Apply changed its input: %s", d)
	}
}
