package reducer

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// The project's own recordings (testdata/, see package fixtures) hold every
// situation the upstream recordings do, and more, and are in every clone:
// these tests mirror the upstream-recording ones so that a clone without
// ../shared still folds each situation.

// fixtureLog folds a fixture conversation directory over its base state
// (nil when it has none), as replay does.
func fixtureLog(t *testing.T, name string) (*Log, []model.Event) {
	t.Helper()
	dir := fixtures.Path(t, name)
	evs := testevents.Recorded(t, dir)
	var base *model.BaseState
	if raw, err := os.ReadFile(filepath.Join(dir, "base_state.json")); err == nil {
		if base, err = model.DecodeBaseState(raw); err != nil {
			t.Fatal(err)
		}
	}
	log := NewLog(base, 0)
	log.Append(evs...)
	return log, evs
}

// TestFixturesEveryPrefixEqualsFold: for every linear fixture, the log's
// state at every event equals the fold of the events up to it, whatever
// the checkpoint spacing.
func TestFixturesEveryPrefixEqualsFold(t *testing.T) {
	t.Parallel()
	for _, name := range []string{fixtures.SDK, fixtures.CLI, fixtures.Situations, fixtures.Unknown} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			evs := testevents.Recorded(t, fixtures.Path(t, name))
			for _, every := range []int{1, 2, checkpointEvery} {
				log := newLogEvery(nil, len(evs), every)
				log.Append(evs...)
				checkEveryPrefix(t, log, nil, len(evs))
			}
		})
	}
}

// TestFixturesDerivedValues pins what the fold derives from each fixture:
// status and where it came from, steps, kinds, transitions, and the state
// at the events that make each situation.
func TestFixturesDerivedValues(t *testing.T) {
	t.Parallel()
	type want struct {
		status      string
		source      StatusSource
		steps       int
		kinds       map[string]int
		unknown     map[string]int
		transitions []string
		costKnown   bool
		check       func(t *testing.T, evs []model.Event, log *Log)
	}
	tests := map[string]want{
		// A local SDK run records no state updates: the status is inferred
		// from the content events and the cost is unknown, not $0.
		fixtures.CLI: {
			status: model.StatusFinished, source: SourceInferred, steps: 8,
			kinds:       map[string]int{"SystemPromptEvent": 1, "MessageEvent": 1, "ActionEvent": 9, "ObservationEvent": 9},
			transitions: []string{"idle>running@1", "running>finished@18"},
			check: func(t *testing.T, evs []model.Event, log *Log) {
				if !log.At(0).Metrics.Combined.CostKnown {
					t.Errorf("no step taken yet, but the cost is unknown")
				}
				if s := log.At(2); len(s.Pending) != 1 || s.Status != model.StatusRunning {
					t.Errorf("after the first action: %s, pending %+v", s.Status, s.Pending)
				}
			},
		},
		// The agent-server's layout: statuses from state updates, the
		// policy from base_state.json.
		fixtures.SDK: {
			status: model.StatusFinished, source: SourceStateUpdate, steps: 8, costKnown: true,
			kinds:       map[string]int{"SystemPromptEvent": 1, "MessageEvent": 1, "ActionEvent": 9, "ObservationEvent": 9, "ConversationStateUpdateEvent": 10},
			transitions: []string{"idle>running@1", "running>finished@28"},
			check: func(t *testing.T, evs []model.Event, log *Log) {
				if p := log.Latest().ConfirmationPolicy; p != "ConfirmRisky" {
					t.Errorf("confirmation policy %q, want ConfirmRisky from base_state.json", p)
				}
				if log.Latest().Metrics.Combined.LLMCalls == 0 {
					t.Errorf("no LLM calls counted from the stats updates")
				}
			},
		},
		// Confirmed, rejected, a failed call, a condensation, a finish.
		fixtures.Situations: {
			status: model.StatusFinished, source: SourceStateUpdate, steps: 5, costKnown: true,
			kinds: map[string]int{"SystemPromptEvent": 1, "MessageEvent": 2, "ActionEvent": 5, "ObservationEvent": 3,
				"ConversationStateUpdateEvent": 13, "UserRejectObservation": 1, "AgentErrorEvent": 1, "CondensationRequest": 1, "Condensation": 1},
			transitions: []string{
				"idle>running@1",
				"running>waiting_for_confirmation@5", "waiting_for_confirmation>running@6",
				"running>waiting_for_confirmation@10", "waiting_for_confirmation>idle@12",
				"idle>running@14", "running>finished@26",
			},
			check: checkSituations,
		},
		// A newer SDK's kinds are counted as unknown, and the run still
		// folds to its end.
		fixtures.Unknown: {
			status: model.StatusFinished, source: SourceStateUpdate, steps: 2, costKnown: true,
			kinds:       map[string]int{"SystemPromptEvent": 1, "MessageEvent": 2, "ActionEvent": 1, "ObservationEvent": 1, "ConversationStateUpdateEvent": 4, "ReminderEvent": 1},
			unknown:     map[string]int{"ReminderEvent": 1},
			transitions: []string{"idle>running@1", "running>finished@8"},
		},
	}
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			log, evs := fixtureLog(t, name)
			s := log.Latest()
			if s.Status != w.status || s.StatusSource != w.source {
				t.Errorf("status %s/%s, want %s/%s", s.Status, s.StatusSource, w.status, w.source)
			}
			if s.Steps != w.steps {
				t.Errorf("steps %d, want %d", s.Steps, w.steps)
			}
			if got := s.Kinds(); !mapsEqual(got, w.kinds) {
				t.Errorf("kinds %v, want %v", got, w.kinds)
			}
			if got := s.UnknownKinds(); !mapsEqual(got, w.unknown) {
				t.Errorf("unknown kinds %v, want %v", got, w.unknown)
			}
			if s.Metrics.Combined.CostKnown != w.costKnown {
				t.Errorf("cost known %v, want %v", s.Metrics.Combined.CostKnown, w.costKnown)
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

// checkSituations checks the state at each situation of the Situations
// fixture, found by kind rather than by index.
func checkSituations(t *testing.T, evs []model.Event, log *Log) {
	t.Helper()
	var high []int
	reject, agentErr, condensation := -1, -1, -1
	for i, ev := range evs {
		switch b := ev.Body.(type) {
		case *model.Action:
			if b.SecurityRisk == "HIGH" {
				high = append(high, i)
			}
		case *model.UserReject:
			reject = i
		case *model.AgentError:
			agentErr = i
		case *model.Condensation:
			condensation = i
		}
	}
	if len(high) != 2 || reject < 0 || agentErr < 0 || condensation < 0 {
		t.Fatalf("HIGH actions %v, rejection %d, agent error %d, condensation %d", high, reject, agentErr, condensation)
	}
	// Each HIGH action waits for the user with itself pending.
	for _, i := range high {
		s := log.At(i + 1)
		if s.Status != model.StatusWaitingForConfirmation || len(s.Pending) != 1 || s.Pending[0].ID != evs[i].ID || s.Pending[0].SecurityRisk != "HIGH" {
			t.Errorf("after the HIGH action %d: %s, pending %+v", i, s.Status, s.Pending)
		}
	}
	// The first is confirmed: its result settles it.
	if s := log.At(high[0] + 3); len(s.Pending) != 0 || s.Status != model.StatusRunning {
		t.Errorf("after the confirmed action's result: %s, pending %+v", s.Status, s.Pending)
	}
	// The second is rejected: the rejection settles it, the run goes idle.
	if s := log.At(reject); len(s.Pending) != 0 {
		t.Errorf("after the rejection: pending %+v", s.Pending)
	}
	if s := log.At(reject + 1); s.Status != model.StatusIdle {
		t.Errorf("after the rejection's status: %s, want idle", s.Status)
	}
	// The failed call is an error of the run, counted once.
	if s := log.At(agentErr - 1); s.ErrorCount != 0 {
		t.Errorf("before the agent error: %d errors", s.ErrorCount)
	}
	if s := log.At(agentErr); s.ErrorCount != 1 || len(s.Errors()) != 1 || s.Errors()[0].Index != agentErr || s.Errors()[0].Kind != model.KindAgentError {
		t.Errorf("at the agent error: %d errors %+v", s.ErrorCount, s.Errors())
	}
	// The condensation forgets events the LLM saw, and only from then on.
	forgotten := evs[condensation].Body.(*model.Condensation).ForgottenIDs
	if len(forgotten) == 0 {
		t.Fatal("the condensation forgets nothing")
	}
	if log.At(condensation-1).Forgotten(forgotten[0]) || !log.At(condensation).Forgotten(forgotten[0]) {
		t.Errorf("event %s forgotten before the condensation, or not after it", forgotten[0])
	}
	if s := log.Latest(); s.ConfirmationPolicy != "ConfirmRisky" || len(s.Pending) != 0 {
		t.Errorf("at the end: policy %q, pending %+v", s.ConfirmationPolicy, s.Pending)
	}
}

// TestFixtureBranchesTree reads the navigated fixture as a tree: two
// branch points, HEAD at the last branch's end, and HEAD's path holding
// neither earlier branch's reply.
func TestFixtureBranchesTree(t *testing.T) {
	t.Parallel()
	log, evs := fixtureLog(t, fixtures.Branches)
	if log.Linear() {
		t.Fatal("the navigated conversation reads as one line")
	}
	points := log.BranchPoints()
	if len(points) != 2 {
		t.Fatalf("branch points %v, want 2", points)
	}
	for _, p := range points {
		if _, ok := evs[p].Body.(*model.Observation); !ok || len(log.Children(p)) != 2 {
			t.Errorf("branch point %d is a %s with children %v; want a command's result with 2", p, evs[p].Kind, log.Children(p))
		}
	}
	head := log.HeadPath()
	var replies, onHead []int
	for i, ev := range evs {
		if m, ok := ev.Body.(*model.Message); ok && m.Role == "assistant" {
			replies = append(replies, i)
			if head.Contains(i) {
				onHead = append(onHead, i)
			}
		}
	}
	if len(replies) != 3 || len(onHead) != 1 || onHead[0] != replies[2] {
		t.Errorf("agent replies %v, on HEAD's path %v; want only the last", replies, onHead)
	}
	for i := 1; i < len(evs); i++ {
		if p := log.Parent(i); p < 0 || p >= i {
			t.Errorf("event %d has parent %d", i, p)
		}
	}
}
