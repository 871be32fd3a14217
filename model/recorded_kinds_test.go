package model

import (
	"path/filepath"
	"reflect"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/upstream"
)

// TestRecordedKindSequences checks the kind and nested kind of every event
// of every recording, in file order.
func TestRecordedKindSequences(t *testing.T) {
	const (
		sys   = "SystemPromptEvent"
		msg   = "MessageEvent"
		term  = "ActionEvent/TerminalAction"
		termO = "ObservationEvent/TerminalObservation"
		task  = "ActionEvent/TaskTrackerAction"
		taskO = "ObservationEvent/TaskTrackerObservation"
	)
	want := map[string][]string{
		"cli447_hi_followup_iterative_case_a": {sys, msg, msg, msg, msg, msg,
			"ActionEvent/FileEditorAction", "ObservationEvent/FileEditorObservation", term, termO, msg, msg,
			"ActionEvent/FinishAction", "ObservationEvent/FinishObservation"},
		"confirmation_mode":       {sys, msg, term, termO, msg, msg, term, termO, msg, msg, term, termO, msg},
		"creating_agent_plan":     {sys, msg, task, taskO, task, taskO, msg},
		"simple_echo_hello_world": {sys, msg, term, termO, msg},
	}
	// The project's twins of the upstream recordings have the same
	// sequences; they run everywhere, the upstream ones where ../shared is.
	own := map[string]string{fixtures.Echo: "simple_echo_hello_world", fixtures.Confirm: "confirmation_mode",
		fixtures.Plan: "creating_agent_plan", fixtures.Critic: "cli447_hi_followup_iterative_case_a"}
	for _, name := range fixtures.Shapes {
		t.Run(name, func(t *testing.T) {
			kindSequenceIs(t, fixtures.Path(t, name), want[own[name]])
		})
	}
	t.Run("upstream", func(t *testing.T) {
		dirs := upstream.Trajectories(t)
		if len(dirs) != len(want) {
			t.Errorf("%d recordings, want %d: add the new one here", len(dirs), len(want))
		}
		for _, dir := range dirs {
			kindSequenceIs(t, dir, want[filepath.Base(dir)])
		}
	})
}

// kindSequenceIs checks the kind labels of a recording's events, in order.
func kindSequenceIs(t *testing.T, dir string, want []string) {
	t.Helper()
	var got []string
	for i, raw := range upstream.EventFiles(t, dir) {
		ev, err := Decode(raw)
		if err != nil {
			t.Fatalf("%s event %d: %v", filepath.Base(dir), i, err)
		}
		got = append(got, KindLabel(ev))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %v\nwant %v", filepath.Base(dir), got, want)
	}
}
