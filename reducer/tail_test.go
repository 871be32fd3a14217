package reducer

import (
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// checkTails ends the recording after every event and, for every tail of
// up to maxTail events, holds a verdict TailVerdict decides to the full
// fold's. It returns how many recording ends a tail of maxTail decided.
func checkTails(t *testing.T, name string, evs []model.Event, maxTail int) (decided int) {
	t.Helper()
	log := NewLog(nil, 0)
	log.Append(evs...)
	for n := 1; n <= len(evs); n++ {
		want := log.At(n - 1).Verdict(true)
		for k := 1; k <= min(n, maxTail); k++ {
			got, ok := TailVerdict(evs[n-k : n])
			if !ok {
				continue
			}
			if got != want {
				t.Fatalf("%s: the last %d of %d events give %+v, the fold %+v", name, k, n, got, want)
			}
			if k == min(n, maxTail) {
				decided++
			}
		}
	}
	return decided
}

// TestTailVerdictIsTheFoldsVerdict: whenever the last events decide the
// verdict, it is the one a fold of every event reaches, at every end of
// generated recordings (linear and navigated) and of the project's own.
func TestTailVerdictIsTheFoldsVerdict(t *testing.T) {
	t.Parallel()
	linear := testevents.Generated(t, 3000, 1)
	if d := checkTails(t, "generated", linear, 48); d < len(linear)/2 {
		t.Errorf("a tail of 48 decided only %d of %d ends of a generated recording", d, len(linear))
	}
	checkTails(t, "navigated", testevents.GeneratedWith(t, gen.Options{Events: 3000, Seed: 2, Branches: 30}), 48)
	for _, name := range []string{"situations", "branches", "cli", "sdk", "unknown"} {
		checkTails(t, name, testevents.Recorded(t, fixtures.Path(t, name)), 64)
	}
}

func TestTailVerdictDecidesOnlyWhatTheTailSays(t *testing.T) {
	s := newScript()
	s.status(model.StatusRunning)
	s.user()
	s.agentText("r1") // would infer finished, but a status update came first
	s.agentText("r2")
	whole := s.fold().Verdict(true)
	if v, ok := TailVerdict(s.evs); !ok || v != whole || v.Status != model.StatusRunning {
		t.Fatalf("whole recording: %+v %v, fold %+v", v, ok, whole)
	}
	if v, ok := TailVerdict(s.evs[1:]); ok {
		t.Fatalf("a tail without the status update decided %+v: content might infer", v)
	}

	e := newScript()
	e.user()
	e.add("ConversationErrorEvent", "environment", &model.ConversationError{Code: "x"})
	if v, ok := TailVerdict(e.evs[1:]); !ok || v.Status != model.StatusError || v != e.fold().Verdict(true) {
		t.Fatalf("an error event last: %+v %v", v, ok)
	}
	e.user() // infers running again: nothing before it void content
	if v, ok := TailVerdict(e.evs[1:]); ok {
		t.Fatalf("an error event followed by a message decided %+v", v)
	}
}
