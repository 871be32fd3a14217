package compareview

import (
	"testing"

	"ohwatch/compare"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// TestCompareNamesOneResult: the compare detail's output and the compare
// screen's outcome name, for every action, the result the SDK's rule
// names (the inspector's test checks it against the same rule, so the
// screens agree)
// on the hard cases, the recordings and generated logs.
func TestCompareNamesOneResult(t *testing.T) {
	t.Parallel()
	for name, log := range tuitest.ResultLogs(t) {
		t.Run(name, func(t *testing.T) { compareNamesSDKResults(t, log) })
	}
}

// TestCompareNamesOneResultUpstream is TestCompareNamesOneResult on
// the upstream recordings.
func TestCompareNamesOneResultUpstream(t *testing.T) {
	t.Parallel()
	for _, name := range tuitest.ResultRecordings {
		t.Run(name, func(t *testing.T) { compareNamesSDKResults(t, tuitest.Trajectory(t, name)) })
	}
}

func compareNamesSDKResults(t *testing.T, log *reducer.Log) {
	run := compare.NewRun(compare.Side{Name: "A", Log: log})
	steps := compare.NewSteps(log)
	steps.Update()
	actions := 0
	for _, st := range steps.Along(log.HeadPath()) {
		if st.Kind != compare.Action {
			continue
		}
		actions++
		r, ok := tuitest.SDKResult(log, st.Event)
		if _, out := stepTexts(run, st); out != tuitest.WantText(log, r, ok) {
			t.Errorf("event %d: compare detail's output %q, the SDK's result says %q", st.Event, out, tuitest.WantText(log, r, ok))
		}
		if want := tuitest.WantOutcome(log, r, ok); st.Outcome != want {
			t.Errorf("event %d: compare outcome %v, the SDK's result says %v", st.Event, st.Outcome, want)
		}
	}
	if actions == 0 {
		t.Fatal("no action in the log")
	}
}
