package reducer

import (
	"slices"

	"ohwatch/model"
)

// CacheHitPercent is the share of prompt tokens read from the cache, as the
// SDK computes it: cache_read/prompt, or cache_read/(prompt+cache_read)
// when an ACP agent reports them separately (cache_read > prompt).
func (u Usage) CacheHitPercent() float64 {
	if u.CacheRead <= 0 {
		return 0
	}
	den := u.Prompt
	if u.CacheRead > u.Prompt {
		den = u.Prompt + u.CacheRead
	}
	if den <= 0 {
		return 0
	}
	return 100 * float64(u.CacheRead) / float64(den)
}

// Tokens is prompt plus completion tokens.
func (u Usage) Tokens() int64 { return u.Prompt + u.Completion }

// ContextPercent is the share of the context window in use, 0 when the
// window is unknown.
func (u Usage) ContextPercent() float64 {
	if u.ContextWindow <= 0 {
		return 0
	}
	return 100 * float64(u.ContextUsed) / float64(u.ContextWindow)
}

// applyStats applies a stats value (per-field snapshot or a full_state's
// full lists). Stats updates take over from base attribution for good.
func (s *State) applyStats(i int, st *model.Stats) {
	s.statsSeen = true
	if len(st.UsageToMetrics) > 0 {
		s.usageSeen = true
	}
	m := metricsFromStats(st, s.Metrics, s.ctx)
	if metricsEqual(m, s.Metrics) {
		return
	}
	s.setMetrics(i, m)
}

// setMetrics records new metrics set by event i.
func (s *State) setMetrics(i int, m Metrics) {
	s.Metrics = m
	s.MetricsAt = i
}

// metricsFromStats builds Metrics from a ConversationStats. When the
// token_usages lists are absent (per-field snapshots), the LLM calls are
// those the base's per-call lists say the accumulated usage adds up to
// (context.callsFor); without a base that knows it, they are counted as
// the updates whose accumulated usage changed, from prev.
func metricsFromStats(st *model.Stats, prev Metrics, ctx *context) Metrics {
	by := make([]Usage, 0, len(st.UsageToMetrics))
	var buf [4]string
	for _, id := range usageIDs(buf[:0], st, prev) {
		m := st.UsageToMetrics[id]
		a := m.Accumulated
		u := Usage{
			UsageID:       id,
			Model:         m.ModelName,
			CostUSD:       m.AccumulatedCost,
			Prompt:        a.Prompt,
			Completion:    a.Completion,
			CacheRead:     a.CacheRead,
			CacheWrite:    a.CacheWrite,
			Reasoning:     a.Reasoning,
			ContextUsed:   a.PerTurn,
			ContextWindow: a.ContextWindow,
		}
		if u.Model == "" {
			u.Model = a.Model
		}
		if old, ok := prev.usage(id); ok {
			// The same strings as the State before, not this event's: a
			// State kept for good would otherwise keep every string of the
			// event they came from.
			u.UsageID = old.UsageID
			if old.Model == u.Model {
				u.Model = old.Model
			}
		}
		if len(m.TokenUsages) > 0 {
			u.LLMCalls = len(m.TokenUsages)
		} else if n, ok := ctx.callsFor(id, a); ok {
			u.LLMCalls = n
		} else {
			old, ok := prev.usage(id)
			switch {
			case !ok && u.Tokens() > 0:
				u.LLMCalls = 1
			case ok && usageChanged(old, u):
				u.LLMCalls = old.LLMCalls + 1
			case ok:
				u.LLMCalls = old.LLMCalls
			}
		}
		u.CostKnown = u.CostUSD != 0 || u.Tokens() == 0
		by = append(by, u)
	}
	return combine(by)
}

// usageIDs appends to ids the usage ids of st that have metrics, sorted.
// Stats updates nearly always name the same ids as the previous ones, so
// those are reused, in their order, without collecting and sorting the map
// keys. The caller's ids can live on its stack: a third of the events are
// stats updates.
func usageIDs(ids []string, st *model.Stats, prev Metrics) []string {
	if len(prev.ByUsage) > 0 && len(prev.ByUsage) <= 4 && len(prev.ByUsage) == len(st.UsageToMetrics) {
		same := true
		for _, u := range prev.ByUsage {
			if st.UsageToMetrics[u.UsageID] == nil {
				same = false
				break
			}
		}
		if same {
			for _, u := range prev.ByUsage {
				ids = append(ids, u.UsageID)
			}
			return ids
		}
	}
	for id, m := range st.UsageToMetrics {
		if m != nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// combine sums the usages into Combined. The context figures are those of
// the main LLM ("agent" on Cloud, "default" elsewhere; else the usage with
// the most prompt tokens), since contexts of different LLMs do not add.
func combine(by []Usage) Metrics {
	var c Usage
	main := -1
	for k, u := range by {
		c.CostUSD += u.CostUSD
		c.Prompt += u.Prompt
		c.Completion += u.Completion
		c.CacheRead += u.CacheRead
		c.CacheWrite += u.CacheWrite
		c.Reasoning += u.Reasoning
		c.LLMCalls += u.LLMCalls
		switch {
		case u.UsageID == "agent" || u.UsageID == "default":
			if main < 0 || (by[main].UsageID != "agent" && by[main].UsageID != "default") {
				main = k
			}
		case main < 0 || (by[main].UsageID != "agent" && by[main].UsageID != "default" && u.Prompt > by[main].Prompt):
			main = k
		}
	}
	if main >= 0 {
		c.Model = by[main].Model
		c.ContextUsed = by[main].ContextUsed
		c.ContextWindow = by[main].ContextWindow
	}
	c.CostKnown = c.CostUSD != 0 || c.Tokens() == 0
	if len(by) == 0 {
		by = nil
	}
	return Metrics{Combined: c, ByUsage: by}
}

// usage returns the usage with this id.
func (m Metrics) usage(id string) (Usage, bool) {
	for _, u := range m.ByUsage {
		if u.UsageID == id {
			return u, true
		}
	}
	return Usage{}, false
}

// usageChanged reports whether the accumulated usage moved: one more call.
func usageChanged(a, b Usage) bool {
	return a.CostUSD != b.CostUSD || a.Prompt != b.Prompt || a.Completion != b.Completion ||
		a.CacheRead != b.CacheRead || a.CacheWrite != b.CacheWrite || a.Reasoning != b.Reasoning
}

// metricsEqual compares two Metrics field by field.
func metricsEqual(a, b Metrics) bool {
	return a.Combined == b.Combined && slices.Equal(a.ByUsage, b.ByUsage)
}

// MetricsReported reports whether the conversation reports its LLM usage at
// all: a stats update named at least one usage, or base_state.json carries
// stats with one (whose calls are attributed to events as they are
// reached). Without either, every token count and call count is unknown —
// not zero, however many LLM replies the log holds. An empty
// usage_to_metrics (a snapshot of a server that never called an LLM it
// could meter) reports nothing.
//
// It is the one rule every view follows for every figure: so that no view
// shows "cost unknown" beside "tokens 0, calls 0", an agent step taken
// with nothing measured for it yet (a fork's first events before its
// first stats update) makes every figure unknown, not only the cost.
func (s State) MetricsReported() bool {
	if !s.usageSeen && !(s.ctx != nil && s.ctx.base != nil && s.ctx.base.Stats != nil && len(s.ctx.base.Stats.UsageToMetrics) > 0) {
		return false
	}
	// The cost is unknown only for tokens spent unpriced, or for an
	// agent step with nothing measured (countResponse): in the second
	// case the zeros beside it are no more known than the cost.
	c := s.Metrics.Combined
	return c.CostKnown || c.Tokens() > 0 || c.LLMCalls > 0
}
