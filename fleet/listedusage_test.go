package fleet

import (
	"testing"

	"ohwatch/model"
	"ohwatch/reducer"
)

// TestListedUsageRowIsTheStatsRow: a conversation listed with its usage
// already summed (a server's capped listing keeps no stats) shows the
// same cost, tokens and calls, known or not, as one listed with the stats
// themselves; and the entry keeps no listing's stats.
func TestListedUsageRowIsTheStatsRow(t *testing.T) {
	usage := model.TokenUsage{Prompt: 1000, Completion: 200}
	for name, st := range map[string]*model.Stats{
		"full": {UsageToMetrics: map[string]*model.Metrics{
			"agent":     {ModelName: "m", AccumulatedCost: 0.5, Accumulated: usage, TokenUsages: []model.TokenUsage{usage, usage, usage}},
			"condenser": {ModelName: "m", AccumulatedCost: 0.25, Accumulated: usage, TokenUsages: []model.TokenUsage{usage}}}},
		"snapshot": {UsageToMetrics: map[string]*model.Metrics{"agent": {ModelName: "m", AccumulatedCost: 0.5, Accumulated: usage}}},
		"unpriced": {UsageToMetrics: map[string]*model.Metrics{"agent": {ModelName: "m", Accumulated: usage, TokenUsages: []model.TokenUsage{usage}}}},
		"empty":    {UsageToMetrics: map[string]*model.Metrics{}},
	} {
		f := New()
		byStats, summed := newConv("srv", "stats"), newConv("srv", "summed")
		f.Apply([]model.FleetUpdate{
			byStats.meta(model.ConversationMeta{Status: "finished", UpdatedAt: t0, Stats: st}),
			summed.meta(model.ConversationMeta{Status: "finished", UpdatedAt: t0, Usage: reducer.ListedUsageOf(st)}),
		})
		a, _ := f.Row(byStats.ref)
		b, _ := f.Row(summed.ref)
		if a.Cost != b.Cost || a.CostKnown != b.CostKnown || a.Tokens != b.Tokens || a.LLMCalls != b.LLMCalls ||
			a.LLMCallsKnown != b.LLMCallsKnown || a.MetricsReported != b.MetricsReported {
			t.Errorf("%s: summed row %+v, want the stats row's %+v", name, b, a)
		}
		for _, ref := range []model.ConversationRef{byStats.ref, summed.ref} {
			if e := f.entries[ref]; e == nil || e.meta.Stats != nil || e.meta.Usage != nil {
				t.Errorf("%s: the entry of %s keeps the listing's stats", name, ref.ID)
			}
		}
	}
	full := reducer.ListedUsageOf(&model.Stats{UsageToMetrics: map[string]*model.Metrics{
		"agent": {AccumulatedCost: 0.5, Accumulated: usage, TokenUsages: []model.TokenUsage{usage, usage}}}})
	if want := (model.ListedUsage{CostUSD: 0.5, Tokens: 1200, Calls: 2, CostKnown: true, CallsKnown: true}); full == nil || *full != want {
		t.Errorf("summed %+v, want %+v", full, want)
	}
}
