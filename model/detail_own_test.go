package model

import (
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/upstream"
)

// ownEvent decodes event i of one of the project's recordings.
func ownEvent(t *testing.T, fixture string, i int) Event {
	t.Helper()
	return mustDecode(t, upstream.EventFiles(t, fixtures.Path(t, fixture))[i])
}

// TestDetailOwnPayloads is TestDetailRecordedPayloads on the project's
// twins of the upstream CLI recordings: critic results, dynamic context,
// a terminal pair, a file view, a task list and a finish.
func TestDetailOwnPayloads(t *testing.T) {
	t.Run("message with reasoning and critic", func(t *testing.T) {
		d, err := ownEvent(t, fixtures.Critic, 2).Detail()
		if err != nil {
			t.Fatal(err)
		}
		m := d.(*MessageEvent)
		if m.Text() != "Hello! What should I work on?" {
			t.Errorf("text %q", m.Text())
		}
		if m.CriticResult == nil || m.CriticResult.Score != 0.41 || !strings.HasPrefix(m.CriticResult.Message, "Success: 0.41") {
			t.Errorf("critic %+v", m.CriticResult)
		}
	})
	t.Run("system prompt", func(t *testing.T) {
		d, err := ownEvent(t, fixtures.Critic, 0).Detail()
		if err != nil {
			t.Fatal(err)
		}
		s := d.(*SystemPromptEvent)
		if s.SystemPrompt.Text == "" || len(s.Tools) == 0 || s.Tools[0].Title != "terminal" {
			t.Errorf("%d chars, tools %+v", len(s.SystemPrompt.Text), s.Tools)
		}
		if s.DynamicContext == nil || !strings.Contains(s.DynamicContext.Text, "<SKILLS>") {
			t.Errorf("dynamic context %+v", s.DynamicContext)
		}
	})
	t.Run("terminal pair", func(t *testing.T) {
		run, err := TerminalPair(ownEvent(t, fixtures.Critic, 8), ownEvent(t, fixtures.Critic, 9))
		if err != nil {
			t.Fatal(err)
		}
		if run.Command != "cat README.md" || run.ExitCode == nil || *run.ExitCode != 0 || !strings.Contains(run.Output, "Hello from the fixture") {
			t.Errorf("%+v", run)
		}
		if _, err := TerminalPair(ownEvent(t, fixtures.Critic, 6), Event{}); err == nil {
			t.Error("a file editor action read as a terminal command")
		}
	})
	t.Run("file editor view is not an edit", func(t *testing.T) {
		d, err := ownEvent(t, fixtures.Critic, 7).Detail()
		if err != nil {
			t.Fatal(err)
		}
		o := d.(*ObservationEvent)
		if fe := o.Observation.(*FileEditorObservation); fe.Command != "view" || !strings.Contains(o.Output(), "A small service.") {
			t.Errorf("%+v", fe)
		}
		if _, ok := FileEditOf(d); ok {
			t.Error("a view reported as an edit")
		}
	})
	t.Run("task tracker", func(t *testing.T) {
		d, err := ownEvent(t, fixtures.Plan, 3).Detail()
		if err != nil {
			t.Fatal(err)
		}
		if tt := d.(*ObservationEvent).Observation.(*TaskTrackerObservation); tt.Command != "plan" || len(tt.TaskList) != 5 {
			t.Errorf("%+v", tt)
		}
	})
	t.Run("finish with a critic result", func(t *testing.T) {
		d, err := ownEvent(t, fixtures.Critic, 12).Detail()
		if err != nil {
			t.Fatal(err)
		}
		a := d.(*ActionEvent)
		if f := a.Action.(*FinishAction); f.Message != "The greeting is in the README." {
			t.Errorf("%+v", f)
		}
		if a.CriticResult == nil || a.CriticResult.Score != 0.83 {
			t.Errorf("critic %+v", a.CriticResult)
		}
	})
}
