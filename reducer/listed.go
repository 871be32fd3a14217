package reducer

import "ohwatch/model"

// ListedUsageOf sums a listing's stats as a row shows them, by the
// reducer's own rule: a base state with no events to attribute them to
// applies at once. It is nil when the stats report no usage (so every
// figure is unknown, never a false zero).
func ListedUsageOf(st *model.Stats) *model.ListedUsage {
	if st == nil || len(st.UsageToMetrics) == 0 {
		return nil
	}
	s := Initial(&model.BaseState{Stats: st}, 0)
	if !s.MetricsReported() {
		return nil
	}
	c := s.Metrics.Combined
	return &model.ListedUsage{CostUSD: c.CostUSD, Tokens: c.Tokens(), Calls: c.LLMCalls, CostKnown: c.CostKnown, CallsKnown: listsCalls(st)}
}

// listsCalls reports whether stats say how many LLM calls were made:
// full stats carry one entry per call; the snapshot form a per-field
// stats update sends has only the accumulated usage, from which the
// count cannot be told (the reducer would count the usages, not calls).
func listsCalls(st *model.Stats) bool {
	for _, m := range st.UsageToMetrics {
		if m == nil {
			continue
		}
		used := m.AccumulatedCost != 0 || m.Accumulated.Prompt != 0 || m.Accumulated.Completion != 0
		if used && len(m.TokenUsages) == 0 && len(m.Costs) == 0 && len(m.Latencies) == 0 {
			return false
		}
	}
	return true
}
