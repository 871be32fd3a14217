package fleet

import (
	"testing"

	"ohwatch/model"
	"ohwatch/reducer"
)

func TestOutcome(t *testing.T) {
	v := func(s string, confirmed bool) reducer.Verdict {
		return reducer.Verdict{Status: s, Confirmed: confirmed}
	}
	live := model.ConnState{Phase: model.PhaseLive}
	tests := []struct {
		name string
		r    Row
		want Outcome
	}{
		{"running", Row{Verdict: v("running", false), Conn: live, ConnKnown: true}, OutcomeRunning},
		{"provisional finished", Row{Verdict: v("finished", false), Conn: live, ConnKnown: true}, OutcomeRunning},
		{"confirmed finished", Row{Verdict: v("finished", true), Conn: live, ConnKnown: true}, OutcomeFinished},
		{"recorded finished", Row{Verdict: reducer.Verdict{Status: "finished", Recorded: true}}, OutcomeFinished},
		{"error", Row{Verdict: v("error", false)}, OutcomeError},
		{"stuck", Row{Verdict: v("stuck", false)}, OutcomeStuck},
		{"source done", Row{Verdict: v("running", false), Conn: model.ConnState{Phase: model.PhaseDone}, ConnKnown: true}, OutcomeNone},
		{"lost for good", Row{Verdict: v("running", false), Conn: model.ConnState{Phase: model.PhaseLost, Final: true}, ConnKnown: true}, OutcomeNone},
		{"lost, retrying", Row{Verdict: v("running", false), Conn: model.ConnState{Phase: model.PhaseLost}, ConnKnown: true}, OutcomeRunning},
		{"paused sandbox", Row{Verdict: v("running", false), Paused: true}, OutcomeNone},
		{"nothing known", Row{}, OutcomeRunning},
		{"idle, the server says", Row{Verdict: v("idle", true), Conn: live, ConnKnown: true}, OutcomeAtRest},
		{"paused, the server says", Row{Verdict: v("paused", true), Conn: live, ConnKnown: true}, OutcomeAtRest},
		{"idle, inferred", Row{Verdict: v("idle", false), Conn: live, ConnKnown: true}, OutcomeRunning},
		{"waiting for confirmation", Row{Verdict: v("waiting_for_confirmation", true), Conn: live, ConnKnown: true}, OutcomeRunning},
	}
	for _, tc := range tests {
		if got := tc.r.Outcome(); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if !(OutcomeError > OutcomeStuck && OutcomeStuck > OutcomeNone && OutcomeNone > OutcomeAtRest && OutcomeAtRest > OutcomeFinished) {
		t.Fatal("outcomes out of order")
	}
}
