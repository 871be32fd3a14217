package reducer

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/internal/upstream"
	"ohwatch/model"
)

func TestRecordingsEveryPrefixEqualsFold(t *testing.T) {
	for _, dir := range fixtures.Recordings(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			evs := testevents.Recorded(t, dir)
			for _, every := range []int{1, 2, checkpointEvery} {
				log := newLogEvery(nil, len(evs), every)
				log.Append(evs...)
				checkEveryPrefix(t, log, nil, len(evs))
			}
			// Same events, same State: a second decode and fold agrees.
			again := Fold(Initial(nil, 0), testevents.Recorded(t, dir)...)
			if d := diffState(Fold(Initial(nil, 0), evs...), again, nil); d != "" {
				t.Fatalf("two folds differ: %s", d)
			}
			// A replay of the whole recording adds nothing.
			log := NewLog(nil, 0)
			log.Append(evs...)
			if added := log.Append(testevents.Recorded(t, dir)...); added != 0 || log.Duplicates() != len(evs) {
				t.Fatalf("replay added %d, duplicates %d", added, log.Duplicates())
			}
		})
	}
}

func TestRecordingsDerivedValues(t *testing.T) {
	type want struct {
		status      string
		source      StatusSource
		steps       int
		iteration   int
		kinds       map[string]int
		tasks       []string // statuses of the final checklist
		transitions []string
		check       func(t *testing.T, evs []model.Event, log *Log)
	}
	tests := map[string]want{
		"simple_echo_hello_world": {
			status: model.StatusFinished, source: SourceInferred, steps: 2, iteration: 2,
			kinds:       map[string]int{"SystemPromptEvent": 1, "MessageEvent": 2, "ActionEvent": 1, "ObservationEvent": 1},
			transitions: []string{"idle>running@1", "running>finished@4"},
			check: func(t *testing.T, evs []model.Event, log *Log) {
				var terminals int
				for _, ev := range evs {
					if a, ok := ev.Body.(*model.Action); ok && a.ActionKind == "TerminalAction" {
						terminals++
					}
					if o, ok := ev.Body.(*model.Observation); ok {
						if o.ExitCode == nil || *o.ExitCode != 0 {
							t.Fatalf("exit code %v, want 0", o.ExitCode)
						}
					}
				}
				if terminals != 1 {
					t.Fatalf("%d terminal actions, want 1", terminals)
				}
				if s := log.At(2); len(s.Pending) != 1 || s.Pending[0].SecurityRisk != "LOW" {
					t.Fatalf("pending after the action: %+v", s.Pending)
				}
			},
		},
		"confirmation_mode": {
			status: model.StatusFinished, source: SourceInferred, steps: 6, iteration: 2,
			kinds: map[string]int{"SystemPromptEvent": 1, "MessageEvent": 6, "ActionEvent": 3, "ObservationEvent": 3},
			transitions: []string{
				"idle>running@1", "running>finished@4",
				"finished>running@5", "running>waiting_for_confirmation@6", "waiting_for_confirmation>running@7", "running>finished@8",
				"finished>running@9", "running>finished@12",
			},
			check: func(t *testing.T, evs []model.Event, log *Log) {
				var high []int
				for i, ev := range evs {
					if a, ok := ev.Body.(*model.Action); ok && a.SecurityRisk == "HIGH" {
						high = append(high, i)
					}
				}
				if len(high) != 1 {
					t.Fatalf("HIGH-risk actions at %v, want one", high)
				}
				s := log.At(high[0])
				if s.Status != model.StatusWaitingForConfirmation || len(s.Pending) != 1 || s.Pending[0].SecurityRisk != "HIGH" {
					t.Fatalf("at the HIGH action: %s, pending %+v", s.Status, s.Pending)
				}
			},
		},
		"creating_agent_plan": {
			status: model.StatusFinished, source: SourceInferred, steps: 3, iteration: 3,
			kinds:       map[string]int{"SystemPromptEvent": 1, "MessageEvent": 2, "ActionEvent": 2, "ObservationEvent": 2},
			tasks:       []string{"todo", "todo", "todo", "todo", "todo"},
			transitions: []string{"idle>running@1", "running>finished@6"},
			check: func(t *testing.T, evs []model.Event, log *Log) {
				if s := log.At(2); s.Tasks.TentativeAt != 2 || len(s.Tasks.Tentative) == 0 || s.Tasks.ChangedAt != -1 {
					t.Fatalf("after the first plan action: %+v", s.Tasks)
				}
				if s := log.At(3); s.Tasks.ChangedAt != 3 || s.Tasks.TentativeAt != -1 {
					t.Fatalf("after the first plan observation: %+v", s.Tasks)
				}
				if p := log.Provenance(6); p.Tasks != 5 {
					t.Fatalf("provenance %+v", p)
				}
			},
		},
		"cli447_hi_followup_iterative_case_a": {
			status: model.StatusFinished, source: SourceInferred, steps: 6, iteration: 1,
			kinds: map[string]int{"SystemPromptEvent": 1, "MessageEvent": 7, "ActionEvent": 3, "ObservationEvent": 3},
			transitions: []string{
				"idle>running@1", "running>finished@2", "finished>running@3", "running>finished@4",
				"finished>running@5", "running>finished@10", "finished>running@11", "running>finished@12",
			},
			check: func(t *testing.T, evs []model.Event, log *Log) {
				last := log.Latest()
				if last.StatusAt != 12 || !strings.Contains(evs[12].Kind, "Action") {
					t.Fatalf("finished set at %d (%s), want the FinishAction", last.StatusAt, evs[last.StatusAt].Kind)
				}
				if last.ErrorCount != 0 || len(last.Pending) != 0 || last.HistoryLen() != len(evs) {
					t.Fatalf("errors %d pending %d history %d", last.ErrorCount, len(last.Pending), last.HistoryLen())
				}
			},
		},
	}
	for _, dir := range upstream.Trajectories(t) {
		name := filepath.Base(dir)
		w, ok := tests[name]
		if !ok {
			t.Errorf("recording %s has no pinned values", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			evs := testevents.Recorded(t, dir)
			log := NewLog(nil, 0)
			log.Append(evs...)
			s := log.Latest()
			if s.Status != w.status || s.StatusSource != w.source || s.StatusConfirmed {
				t.Errorf("status %s/%s/%v, want %s/%s/provisional", s.Status, s.StatusSource, s.StatusConfirmed, w.status, w.source)
			}
			if s.Steps != w.steps || s.Iteration != w.iteration {
				t.Errorf("steps %d iteration %d, want %d/%d", s.Steps, s.Iteration, w.steps, w.iteration)
			}
			if got := s.Kinds(); !mapsEqual(got, w.kinds) {
				t.Errorf("kinds %v, want %v", got, w.kinds)
			}
			if len(s.UnknownKinds()) != 0 {
				t.Errorf("unknown kinds %v", s.UnknownKinds())
			}
			var statuses []string
			for _, it := range s.Tasks.Items {
				statuses = append(statuses, it.Status)
			}
			if !slices.Equal(statuses, w.tasks) {
				t.Errorf("tasks %v, want %v", statuses, w.tasks)
			}
			var trs []string
			for _, tr := range s.Transitions() {
				trs = append(trs, tr.From+">"+tr.To+"@"+itoa(tr.Index))
			}
			if !slices.Equal(trs, w.transitions) {
				t.Errorf("transitions\n got %v\nwant %v", trs, w.transitions)
			}
			if w.check != nil {
				w.check(t, evs, log)
			}
		})
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestRecordingsWithoutMetricsHaveUnknownCost checks that the CLI
// recordings, which report no stats, end with an unknown cost rather than
// a false $0, while their first event (before any step) costs a known $0.
func TestRecordingsWithoutMetricsHaveUnknownCost(t *testing.T) {
	for _, dir := range fixtures.Recordings(t) {
		log := NewLog(nil, 0)
		log.Append(testevents.Recorded(t, dir)...)
		if c := log.Latest().Metrics.Combined; c.CostKnown || c.LLMCalls != 0 {
			t.Errorf("%s: cost known %v with %d LLM calls reported", dir, c.CostKnown, c.LLMCalls)
		}
		if !log.At(0).Metrics.Combined.CostKnown {
			t.Errorf("%s: no step taken yet, but the cost is unknown", dir)
		}
	}
}
