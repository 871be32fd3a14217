package reducer

import (
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// callsBase is a base_state whose agent made calls spending 100, 200, …
// prompt tokens and whose condenser made one call, as the SDK lists them.
func callsBase(agent ...int64) *model.BaseState {
	m := &model.Metrics{ModelName: "m"}
	for _, p := range agent {
		m.TokenUsages = append(m.TokenUsages, model.TokenUsage{Prompt: p, Completion: 1})
		m.Costs = append(m.Costs, model.Cost{Cost: 0.01})
		m.Accumulated.Prompt += p
		m.Accumulated.Completion++
	}
	cond := &model.Metrics{ModelName: "m", TokenUsages: []model.TokenUsage{{Prompt: 7, Completion: 2}},
		Accumulated: model.TokenUsage{Prompt: 7, Completion: 2}}
	// The leaf names no event of the tests' logs, so the base's own totals
	// never apply: what is counted is the updates' attribution alone.
	return &model.BaseState{LeafEventID: "elsewhere", Stats: &model.Stats{UsageToMetrics: map[string]*model.Metrics{"agent": m, "condenser": cond}}}
}

// accStats is a per-field stats update's value: accumulated usage only.
func accStats(agentPrompt, agentCompletion int64, withCondenser bool) *model.Stats {
	st := &model.Stats{UsageToMetrics: map[string]*model.Metrics{
		"agent": {ModelName: "m", Accumulated: model.TokenUsage{Prompt: agentPrompt, Completion: agentCompletion}},
	}}
	if withCondenser {
		st.UsageToMetrics["condenser"] = &model.Metrics{ModelName: "m", Accumulated: model.TokenUsage{Prompt: 7, Completion: 2}}
	}
	return st
}

// TestLLMCallsAreThePrefixOfTheBaseLists pins how calls are attributed:
// a stats update on the path accounts for the calls whose running total
// its accumulated usage is (openhands-sdk llm/utils/metrics.py), so calls
// made on an abandoned branch count on the path's next update, once, and
// a condenser call there leaves no phantom call behind.
func TestLLMCallsAreThePrefixOfTheBaseLists(t *testing.T) {
	base := callsBase(100, 200, 300, 400, 500)
	for _, tt := range []struct {
		name  string
		stats []*model.Stats
		// branchAfter: the events after this stats update hang from the
		// first event (HEAD was navigated back); -1 for a line.
		branchAfter int
		agent, cond int
	}{
		{"one call per update", []*model.Stats{accStats(100, 1, false), accStats(300, 2, false), accStats(600, 3, false)}, -1, 3, 0},
		{"an update after two calls", []*model.Stats{accStats(100, 1, false), accStats(600, 3, false)}, -1, 3, 0},
		{"all of them", []*model.Stats{accStats(1500, 5, true)}, -1, 5, 1},
		{"an abandoned branch's calls and condenser", []*model.Stats{accStats(100, 1, false), accStats(300, 2, true), accStats(1000, 4, true), accStats(1500, 5, true)}, 1, 5, 1},
		{"no prefix matches: one call per change", []*model.Stats{accStats(150, 1, false), accStats(250, 2, false)}, -1, 2, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newScript()
			root := s.user()
			for k, st := range tt.stats {
				ev := s.stats(st)
				if k == tt.branchAfter+1 && tt.branchAfter >= 0 {
					// The stats update written after navigating back hangs
					// from the root, leaving the ones before on a branch.
					s.evs[len(s.evs)-1].ParentID = root.ID
				}
				_ = ev
				a := s.action("FinishAction", "r", "c", "")
				if k == tt.branchAfter+1 && tt.branchAfter >= 0 {
					s.evs[len(s.evs)-1].ParentID = root.ID
				}
				_ = a
			}
			log := NewLog(base, 0)
			log.Append(s.evs...)
			got := log.Latest().Metrics
			agent, _ := got.usage("agent")
			cond, _ := got.usage("condenser")
			if agent.LLMCalls != tt.agent || cond.LLMCalls != tt.cond || got.Combined.LLMCalls != tt.agent+tt.cond {
				t.Fatalf("calls agent %d condenser %d combined %d, want %d and %d", agent.LLMCalls, cond.LLMCalls,
					got.Combined.LLMCalls, tt.agent, tt.cond)
			}
			checkEveryPathFold(t, log, base, 0)
		})
	}
}

// TestBranchedConversationAgreesWithTheSDK holds the generated branched
// conversation to the numbers the SDK 1.43.1 itself computes from the same
// files (EventLog.path_to_root(leaf_event_id) and the lengths of
// base_state's per-call lists): 601 LLM calls (592 agent, 9 condenser),
// HEAD 18881414…, 1253 events on HEAD's path, which leaves out the 643
// state updates folded along it.
func TestBranchedConversationAgreesWithTheSDK(t *testing.T) {
	opts := gen.Options{Events: 2000, Branches: 3, Seed: 9}
	base, err := model.DecodeBaseState(gen.BaseState(opts))
	if err != nil {
		t.Fatal(err)
	}
	evs := testevents.GeneratedWith(t, opts)
	log := NewLog(base, len(evs))
	log.Append(evs...)
	s := log.Latest()
	agent, _ := s.Metrics.usage("agent")
	cond, _ := s.Metrics.usage("condenser")
	if s.Metrics.Combined.LLMCalls != 601 || agent.LLMCalls != 592 || cond.LLMCalls != 9 {
		t.Errorf("calls %d (agent %d, condenser %d), the SDK says 601 (592, 9)", s.Metrics.Combined.LLMCalls, agent.LLMCalls, cond.LLMCalls)
	}
	for id, m := range base.Stats.UsageToMetrics {
		u, _ := s.Metrics.usage(id)
		if u.LLMCalls != len(m.TokenUsages) || u.Prompt != m.Accumulated.Prompt || u.Completion != m.Accumulated.Completion {
			t.Errorf("%s: %d calls %d/%d tokens, base_state says %d calls %d/%d", id, u.LLMCalls, u.Prompt, u.Completion,
				len(m.TokenUsages), m.Accumulated.Prompt, m.Accumulated.Completion)
		}
	}
	p := log.HeadPath()
	nodes, updates := log.PathNodes(p)
	tip := log.Event(log.NodeTip(p))
	if tip.ID != "18881414-4f32-4dd5-8f1d-32fc5e16231f" || tip.ID != base.LeafEventID || tip.Kind != model.KindObservation {
		t.Errorf("HEAD %s (%s), the SDK's leaf_event_id is %s", tip.ID, tip.Kind, base.LeafEventID)
	}
	if log.Event(log.Leaf()).ID != base.LeafEventID {
		t.Errorf("Leaf %s, want %s", log.Event(log.Leaf()).ID, base.LeafEventID)
	}
	if nodes != 1253 || updates != 643 || nodes+updates != p.Len() {
		t.Errorf("HEAD's path: %d tree events and %d state updates of %d, the SDK's path holds 1253", nodes, updates, p.Len())
	}
	checkEveryPathFold(t, log, base, len(evs))
}

// checkEveryPathFold holds Log.At(i) to a fresh fold of the path from the
// root to i, for every i (Rule 2 on a tree).
func checkEveryPathFold(t *testing.T, log *Log, base *model.BaseState, count int) {
	t.Helper()
	memo := newEqMemo()
	for i := 0; i < log.Len(); i++ {
		s := Initial(base, count)
		for _, k := range log.Path(i).Indices() {
			s = ApplyAt(s, k, log.Event(k))
		}
		if d := diffState(log.At(i), s, memo); d != "" {
			t.Fatalf("At(%d) != fold of its path: %s", i, d)
		}
	}
}
