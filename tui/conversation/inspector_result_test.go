package conversation

import (
	"testing"

	"ohwatch/compare"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// resultLogs are the logs on which an action's result is checked: the
// hard cases, the project's own recordings and a generated log.
func resultLogs(t *testing.T) map[string]*reducer.Log {
	logs := tuitest.ResultCases(t)
	for _, name := range []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan", "cli447_hi_followup_iterative_case_a"} {
		logs["own "+name] = tuitest.Twin(t, name)
	}
	logs["errors"] = tuitest.ErrorLog(t)
	logs["generated"] = tuitest.Generated(t, 3000, 7)
	return logs
}

// TestInspectorNamesOneResult: the inspector names, for every action, the
// result the SDK's rule names (the compare screen's test checks the
// compare detail and outcome against the same rule, so the screens agree)
// on the hard cases, the recordings and generated logs.
func TestInspectorNamesOneResult(t *testing.T) {
	t.Parallel()
	for name, log := range resultLogs(t) {
		t.Run(name, func(t *testing.T) { inspectorNamesSDKResults(t, log) })
	}
}

// TestInspectorNamesOneResultUpstream is TestInspectorNamesOneResult on
// the upstream recordings.
func TestInspectorNamesOneResultUpstream(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan", "cli447_hi_followup_iterative_case_a"} {
		t.Run(name, func(t *testing.T) { inspectorNamesSDKResults(t, tuitest.Trajectory(t, name)) })
	}
}

func inspectorNamesSDKResults(t *testing.T, log *reducer.Log) {
	m := newModel(Options{Log: log}, 120, 40)
	steps := compare.NewSteps(log)
	steps.Update()
	actions := 0
	for _, st := range steps.Along(log.HeadPath()) {
		if st.Kind != compare.Action {
			continue
		}
		actions++
		r, ok := tuitest.SDKResult(log, st.Event)
		job := m.inspectJobFor(st.Event)
		if got := job.resultIndex >= 0; got != ok || (ok && job.resultIndex != r) {
			t.Errorf("event %d: inspector's result %v at %d, the SDK's %v at %d", st.Event, got, job.resultIndex, ok, r)
		}
	}
	if actions == 0 {
		t.Fatal("no action in the log")
	}
}
