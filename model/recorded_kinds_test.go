package model

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"ohwatch/internal/testdata"
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
	dirs := testdata.Trajectories(t)
	if len(dirs) != len(want) {
		t.Errorf("%d recordings, want %d: add the new one here", len(dirs), len(want))
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "events", "event-*.json"))
		sort.Strings(files)
		var got []string
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := Decode(raw)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			got = append(got, KindLabel(ev))
		}
		if name := filepath.Base(dir); !reflect.DeepEqual(got, want[name]) {
			t.Errorf("%s:\n got %v\nwant %v", name, got, want[name])
		}
	}
}
