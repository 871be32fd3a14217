package model

import (
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/upstream"
)

// TestDecodeOwnRecordedKinds is TestDecodeRecordedKinds on the project's
// twins of the upstream CLI recordings: the same kinds, nested kinds and
// fields, found by the event's place in the recording.
func TestDecodeOwnRecordedKinds(t *testing.T) {
	tests := []struct {
		fixture      string
		index        int
		kind, nested string
		summary      string
		check        func(t *testing.T, ev Event, all [][]byte)
	}{
		{fixtures.Echo, 0, "SystemPromptEvent", "", "system prompt, 5 tools", func(t *testing.T, ev Event, _ [][]byte) {
			if tools := ev.Body.(*SystemPrompt).Tools; len(tools) == 0 || tools[0] != "terminal" {
				t.Errorf("tools %v", tools)
			}
		}},
		{fixtures.Echo, 1, "MessageEvent", "", "user: Echo the word howdy in the terminal.", func(t *testing.T, ev Event, _ [][]byte) {
			if m := ev.Body.(*Message); m.Role != "user" || m.HasToolCalls {
				t.Errorf("%+v", m)
			}
		}},
		{fixtures.Echo, 2, "ActionEvent", "TerminalAction", "Print the greeting", func(t *testing.T, ev Event, _ [][]byte) {
			if a := ev.Body.(*Action); a.Command != "echo howdy" || a.ToolName != "terminal" || a.SecurityRisk != "LOW" || a.ToolCallID == "" || a.LLMResponseID == "" {
				t.Errorf("%+v", a)
			}
		}},
		{fixtures.Echo, 3, "ObservationEvent", "TerminalObservation", "terminal: exit 0", func(t *testing.T, ev Event, all [][]byte) {
			action, err := Decode(all[2])
			if err != nil {
				t.Fatal(err)
			}
			if o := ev.Body.(*Observation); o.ExitCode == nil || *o.ExitCode != 0 || o.ActionID != action.ID || o.IsError {
				t.Errorf("%+v", o)
			}
		}},
		{fixtures.Echo, 4, "MessageEvent", "", "assistant: Done: the terminal printed howdy.", nil},
		{fixtures.Confirm, 6, "ActionEvent", "TerminalAction", "Run rm -rf /tmp/scratch", func(t *testing.T, ev Event, _ [][]byte) {
			if r := ev.Body.(*Action).SecurityRisk; r != "HIGH" {
				t.Errorf("risk %q", r)
			}
		}},
		{fixtures.Plan, 2, "ActionEvent", "TaskTrackerAction", "Create the plan", func(t *testing.T, ev Event, _ [][]byte) {
			if a := ev.Body.(*Action); a.TaskCommand != "plan" || len(a.Plan) != 5 || a.Plan[0].Title != "Measure the slow path" || a.Plan[0].Status != "todo" {
				t.Errorf("%+v", a)
			}
		}},
		{fixtures.Plan, 3, "ObservationEvent", "TaskTrackerObservation", "5 tasks: 5 todo", func(t *testing.T, ev Event, _ [][]byte) {
			if o := ev.Body.(*Observation); !o.HasTaskList || len(o.TaskList) != 5 || o.TaskList[1].Notes != "path and query" {
				t.Errorf("%+v", o)
			}
		}},
		{fixtures.Plan, 4, "ActionEvent", "TaskTrackerAction", "Check the plan", func(t *testing.T, ev Event, _ [][]byte) {
			if a := ev.Body.(*Action); a.TaskCommand != "view" || a.Plan != nil {
				t.Errorf("%+v", a)
			}
		}},
		{fixtures.Critic, 6, "ActionEvent", "FileEditorAction", "Read the README", nil},
		{fixtures.Critic, 7, "ObservationEvent", "FileEditorObservation", "file_editor: Here's the result of running `cat -n` on /workspace/project/README.md:", nil},
		{fixtures.Critic, 9, "ObservationEvent", "TerminalObservation", "terminal: exit 0", nil},
		{fixtures.Critic, 12, "ActionEvent", "FinishAction", "Finish", nil},
		{fixtures.Critic, 13, "ObservationEvent", "FinishObservation", "finish: The greeting is in the README.", nil},
		{fixtures.Critic, 11, "MessageEvent", "", "user: Thanks, that's all.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.fixture+"/"+tt.summary, func(t *testing.T) {
			all := upstream.EventFiles(t, fixtures.Path(t, tt.fixture))
			ev, err := Decode(all[tt.index])
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != tt.kind {
				t.Errorf("kind %q, want %q", ev.Kind, tt.kind)
			}
			if got := NestedKind(ev); got != tt.nested {
				t.Errorf("nested kind %q, want %q", got, tt.nested)
			}
			if ev.Summary != tt.summary {
				t.Errorf("summary %q, want %q", ev.Summary, tt.summary)
			}
			if tt.check != nil {
				tt.check(t, ev, all)
			}
		})
	}
}
