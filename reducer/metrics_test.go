package reducer

import (
	"math"
	"testing"
	"time"

	"ohwatch/model"
)

// snapshotStats is a per-field stats value: accumulated figures, no lists.
func snapshotStats(cost float64, prompt, completion, cacheRead int64) *model.Stats {
	return &model.Stats{UsageToMetrics: map[string]*model.Metrics{
		"default": {ModelName: "claude", AccumulatedCost: cost, Accumulated: model.TokenUsage{
			Prompt: prompt, Completion: completion, CacheRead: cacheRead, ContextWindow: 200000, PerTurn: prompt + completion,
		}},
	}}
}

func TestStatsSnapshotsCountCallsByChange(t *testing.T) {
	sc := newScript()
	sc.user()
	sc.stats(snapshotStats(0.01, 1000, 100, 0))
	sc.stats(snapshotStats(0.01, 1000, 100, 0)) // unchanged: not a call
	sc.action("TerminalAction", "r1", "c1", "LOW")
	sc.stats(snapshotStats(0.03, 2500, 150, 800))
	s := sc.fold()
	c := s.Metrics.Combined
	if c.LLMCalls != 2 || c.Prompt != 2500 || c.Completion != 150 || c.CacheRead != 800 || math.Abs(c.CostUSD-0.03) > 1e-12 || !c.CostKnown {
		t.Fatalf("combined %+v", c)
	}
	if c.ContextUsed != 2650 || c.ContextWindow != 200000 || s.MetricsAt != 4 {
		t.Fatalf("context %d/%d at %d", c.ContextUsed, c.ContextWindow, s.MetricsAt)
	}
	if got := c.CacheHitPercent(); math.Abs(got-32) > 1e-9 {
		t.Fatalf("cache hit %v, want 32", got)
	}
	if len(s.Metrics.ByUsage) != 1 || s.Metrics.ByUsage[0].UsageID != "default" {
		t.Fatalf("by usage %+v", s.Metrics.ByUsage)
	}
}

func TestCostUnknownWhenTokensSpentAtZeroCost(t *testing.T) {
	sc := newScript()
	sc.stats(snapshotStats(0, 1000, 100, 0))
	if c := sc.fold().Metrics.Combined; c.CostKnown {
		t.Fatalf("tokens at $0 must be an unknown cost: %+v", c)
	}
	sc2 := newScript()
	sc2.stats(snapshotStats(0, 0, 0, 0))
	if c := sc2.fold().Metrics.Combined; !c.CostKnown {
		t.Fatal("no tokens spent: $0 is known")
	}
}

func TestCacheHitPercent(t *testing.T) {
	tests := []struct {
		prompt, cacheRead int64
		want              float64
	}{
		{0, 0, 0},
		{1000, 0, 0},
		{1000, 250, 25},
		{100, 300, 75}, // ACP reports cache reads apart from the prompt
	}
	for _, tt := range tests {
		u := Usage{Prompt: tt.prompt, CacheRead: tt.cacheRead}
		if got := u.CacheHitPercent(); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("prompt %d cache %d: %v, want %v", tt.prompt, tt.cacheRead, got, tt.want)
		}
	}
}

func TestSnapshotListsAndUsageIDs(t *testing.T) {
	st := &model.Stats{UsageToMetrics: map[string]*model.Metrics{
		"condenser": {ModelName: "small", AccumulatedCost: 0.001, Accumulated: model.TokenUsage{Prompt: 500, Completion: 50, PerTurn: 550, ContextWindow: 8000},
			TokenUsages: []model.TokenUsage{{Prompt: 500, Completion: 50}}},
		"agent": {ModelName: "big", AccumulatedCost: 0.5, Accumulated: model.TokenUsage{Prompt: 9000, Completion: 900, PerTurn: 4000, ContextWindow: 200000},
			TokenUsages: []model.TokenUsage{{}, {}, {}}},
	}}
	sc := newScript()
	sc.snapshot(model.StatusRunning, st)
	m := sc.fold().Metrics
	if len(m.ByUsage) != 2 || m.ByUsage[0].UsageID != "agent" || m.ByUsage[1].UsageID != "condenser" {
		t.Fatalf("by usage %+v", m.ByUsage)
	}
	c := m.Combined
	if c.LLMCalls != 4 || c.Prompt != 9500 || c.ContextUsed != 4000 || c.ContextWindow != 200000 || c.Model != "big" {
		t.Fatalf("combined %+v", c)
	}
}

// baseWithCalls is a base_state whose full metrics lists hold three agent
// calls and one condenser call, joined to events by response id.
func baseWithCalls(withResponseIDs bool, t0 time.Time) *model.BaseState {
	ts := func(s int) float64 { return float64(t0.Add(time.Duration(s)*time.Second).UnixNano()) / 1e9 }
	rid := func(id string) string {
		if withResponseIDs {
			return id
		}
		return ""
	}
	return &model.BaseState{
		ExecutionStatus: model.StatusFinished,
		Stats: &model.Stats{UsageToMetrics: map[string]*model.Metrics{
			"default": {
				ModelName:       "claude",
				AccumulatedCost: 0.06,
				Accumulated:     model.TokenUsage{Prompt: 600, Completion: 60, CacheRead: 100, PerTurn: 330, ContextWindow: 200000},
				Costs:           []model.Cost{{Cost: 0.01, Timestamp: ts(2)}, {Cost: 0.02, Timestamp: ts(4)}, {Cost: 0.03, Timestamp: ts(6)}},
				TokenUsages: []model.TokenUsage{
					{Prompt: 100, Completion: 10, PerTurn: 110, ContextWindow: 200000, ResponseID: rid("r1")},
					{Prompt: 200, Completion: 20, PerTurn: 220, ContextWindow: 200000, ResponseID: rid("r2")},
					{Prompt: 300, Completion: 30, CacheRead: 100, PerTurn: 330, ContextWindow: 200000, ResponseID: rid("r3")},
				},
			},
		}},
	}
}

func TestMetricsAttributedFromBaseByResponseID(t *testing.T) {
	sc := newScript()
	sc.user()                                           // e1
	a := sc.action("TerminalAction", "r1", "c1", "LOW") // e2
	sc.action("TerminalAction", "r1", "c2", "LOW")      // e3: same response, not a second call
	sc.observe("TerminalObservation", a)                // e4
	sc.action("FileEditorAction", "r2", "c3", "LOW")    // e5
	sc.agentText("r3")                                  // e6
	base := baseWithCalls(true, sc.start)
	wantCalls := []int{0, 1, 1, 1, 2, 3}
	wantPrompt := []int64{0, 100, 100, 100, 300, 600}
	s := Initial(base, len(sc.evs))
	for k, ev := range sc.evs {
		s = Apply(s, ev)
		c := s.Metrics.Combined
		if c.LLMCalls != wantCalls[k] || c.Prompt != wantPrompt[k] {
			t.Fatalf("after event %d: calls %d prompt %d, want %d/%d", k, c.LLMCalls, c.Prompt, wantCalls[k], wantPrompt[k])
		}
	}
	c := s.Metrics.Combined
	if math.Abs(c.CostUSD-0.06) > 1e-12 || c.ContextUsed != 330 || c.CacheRead != 100 || s.MetricsAt != 5 {
		t.Fatalf("end %+v at %d", c, s.MetricsAt)
	}
	if s.Status != model.StatusFinished || s.StatusSource != SourceBaseState || !s.StatusConfirmed {
		t.Fatalf("status %s/%s/%v", s.Status, s.StatusSource, s.StatusConfirmed)
	}
}

func TestMetricsAttributedFromBaseByTime(t *testing.T) {
	sc := newScript()
	sc.user()                                        // e1 at +1s
	sc.action("TerminalAction", "x1", "c1", "LOW")   // e2 at +2s: the first call (cost at +2s)
	sc.add("PauseEvent", "user", &model.Pause{})     // e3 at +3s
	sc.action("TerminalAction", "x2", "c2", "LOW")   // e4 at +4s
	sc.agentText("x3")                               // e5 at +5s
	sc.add("MessageEvent", "user", &model.Message{}) // e6 at +6s
	base := baseWithCalls(false, sc.start)
	wantCalls := []int{0, 1, 1, 2, 2, 3}
	s := Initial(base, len(sc.evs)+10) // the base lies beyond these events
	for k, ev := range sc.evs {
		s = Apply(s, ev)
		if got := s.Metrics.Combined.LLMCalls; got != wantCalls[k] {
			t.Fatalf("after event %d: %d calls, want %d", k, got, wantCalls[k])
		}
	}
	if c := s.Metrics.Combined; math.Abs(c.CostUSD-0.06) > 1e-12 || c.Prompt != 600 {
		t.Fatalf("combined %+v", c)
	}
}

func TestStatsUpdatesTakeOverFromAttribution(t *testing.T) {
	sc := newScript()
	sc.action("TerminalAction", "r1", "c1", "LOW")
	sc.stats(snapshotStats(0.5, 5000, 500, 0))
	sc.action("TerminalAction", "r2", "c2", "LOW")
	s := Fold(Initial(baseWithCalls(true, sc.start), 99), sc.evs...)
	if c := s.Metrics.Combined; c.Prompt != 5000 || c.LLMCalls != 2 {
		// 1 attributed call, then a changed snapshot counts one more.
		t.Fatalf("combined %+v", c)
	}
}

func TestReplayedStatsDoNotRegressTheSnapshot(t *testing.T) {
	sc := newScript()
	sc.snapshot(model.StatusRunning, snapshotStats(0.5, 9000, 900, 0)) // e1
	old := sc.stats(snapshotStats(0.1, 1000, 100, 0))                  // replayed
	old.Time = sc.start
	sc.evs[len(sc.evs)-1] = old
	s := sc.fold()
	if c := s.Metrics.Combined; c.Prompt != 9000 || s.MetricsAt != 0 {
		t.Fatalf("a replayed stats update regressed the snapshot: %+v at %d", c, s.MetricsAt)
	}
	sc.stats(snapshotStats(0.6, 9500, 950, 0))
	if c := sc.fold().Metrics.Combined; c.Prompt != 9500 || c.LLMCalls != 2 {
		t.Fatalf("a fresh stats update: %+v", c)
	}
}

// TestEmptyStatsReportNothing: a snapshot whose usage_to_metrics is empty
// (what an agent-server, or serve replaying a recording without metrics,
// sends when no LLM usage was metered) does not turn unknown metrics into
// zeros; a stats update that names a usage does.
func TestEmptyStatsReportNothing(t *testing.T) {
	s := newScript()
	s.user()
	s.agentText("r1")
	s.snapshot("finished", &model.Stats{UsageToMetrics: map[string]*model.Metrics{}})
	if st := s.fold(); st.MetricsReported() {
		t.Fatal("an empty usage_to_metrics reported metrics")
	}
	s.stats(&model.Stats{UsageToMetrics: map[string]*model.Metrics{"agent": {}}})
	if st := s.fold(); !st.MetricsReported() {
		t.Fatal("a stats update naming a usage did not report metrics")
	}
}

// TestCallsByResponseAreIndexedOnlyWhenAsked: the index of the base's calls
// by response id is built by the first action folded before any stats
// update, and never for a conversation whose stats updates come first (as
// every recent SDK writes them): for a long conversation it was 30,000
// small objects the collector walked on every cycle of a load, read by no
// one.
func TestCallsByResponseAreIndexedOnlyWhenAsked(t *testing.T) {
	sc := newScript()
	sc.stats(snapshotStats(0.5, 5000, 500, 0))
	sc.action("TerminalAction", "r1", "c1", "LOW")
	sc.action("TerminalAction", "r2", "c2", "LOW")
	s := Fold(Initial(baseWithCalls(true, sc.start), 99), sc.evs...)
	if s.ctx.byResponseMap != nil {
		t.Fatalf("stats came first, yet the calls were indexed by response: %d ids", len(s.ctx.byResponseMap))
	}
	sc = newScript()
	sc.action("TerminalAction", "r1", "c1", "LOW")
	s = Fold(Initial(baseWithCalls(true, sc.start), 99), sc.evs...)
	if len(s.ctx.byResponseMap) == 0 || s.Metrics.Combined.LLMCalls != 1 {
		t.Fatalf("an action before any stats update: index %d ids, calls %d", len(s.ctx.byResponseMap), s.Metrics.Combined.LLMCalls)
	}
}
