package reducer

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"ohwatch/model"
)

// context is what every State of one log shares, read-only: the base
// state and the index that attributes its recorded LLM calls to events.
type context struct {
	base           *model.BaseState
	baseEventCount int
	// responses maps an llm_response_id to the calls it made. It is
	// built on first use: a recording with per-field stats updates (every
	// SDK since they were added) never asks, and building it for the
	// 30,000 calls of a long conversation was 30,000 small objects the
	// collector walked on every cycle of a load.
	responses     sync.Once
	byResponseMap map[string][]llmCall
	// byTime are the calls with no response id, by cost timestamp.
	byTime []llmCall
	// prefix are the running totals of each usage id's calls, which
	// say how many calls a stats update accounts for (model.CallPrefix).
	prefix map[string]model.CallPrefix
}

// llmCall is one recorded LLM call of the base's full metrics lists.
type llmCall struct {
	usageID string
	model   string
	tokens  model.TokenUsage
	cost    float64
	at      float64 // unix seconds, 0 when unknown
}

// newContext builds the shared context: the running totals and the calls
// without a response id now, the index by response id when first asked.
func newContext(base *model.BaseState, baseEventCount int) *context {
	c := &context{base: base, baseEventCount: baseEventCount}
	c.eachCall(func(call llmCall) {
		if call.tokens.ResponseID == "" && call.at > 0 {
			c.byTime = append(c.byTime, call)
		}
	})
	slices.SortStableFunc(c.byTime, func(a, b llmCall) int { return cmp.Compare(a.at, b.at) })
	if base == nil || base.Stats == nil {
		return c
	}
	for id, m := range base.Stats.UsageToMetrics {
		if m != nil && len(m.TokenUsages) > 0 {
			if c.prefix == nil {
				c.prefix = make(map[string]model.CallPrefix, len(base.Stats.UsageToMetrics))
			}
			c.prefix[id] = model.NewCallPrefix(m)
		}
	}
	return c
}

// eachCall calls f with every recorded call of the base, by usage id in
// order, then in call order.
func (c *context) eachCall(f func(llmCall)) {
	if c.base == nil || c.base.Stats == nil {
		return
	}
	ids := make([]string, 0, len(c.base.Stats.UsageToMetrics))
	for id := range c.base.Stats.UsageToMetrics {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		m := c.base.Stats.UsageToMetrics[id]
		if m == nil {
			continue
		}
		aligned := len(m.Costs) == len(m.TokenUsages)
		for k, tu := range m.TokenUsages {
			call := llmCall{usageID: id, model: m.ModelName, tokens: tu}
			if aligned {
				call.cost = m.Costs[k].Cost
				call.at = m.Costs[k].Timestamp
			}
			f(call)
		}
	}
}

// byResponse returns the index of the base's calls by response id (nil
// when none has one), building it on the first call.
func (c *context) byResponse() map[string][]llmCall {
	c.responses.Do(func() {
		c.eachCall(func(call llmCall) {
			if id := call.tokens.ResponseID; id != "" {
				if c.byResponseMap == nil {
					c.byResponseMap = make(map[string][]llmCall)
				}
				c.byResponseMap[id] = append(c.byResponseMap[id], call)
			}
		})
	})
	return c.byResponseMap
}

// callsFor is the number of LLM calls of usage id that a stats update
// with this accumulated usage accounts for, by the base's per-call lists.
func (c *context) callsFor(id string, acc model.TokenUsage) (int, bool) {
	if c == nil || c.prefix == nil {
		return 0, false
	}
	p, ok := c.prefix[id]
	if !ok {
		return 0, false
	}
	return p.Calls(acc)
}

// baseAt reports whether the base applies at event i (with this id).
// base_state.json is rewritten on every change, so it describes the state
// after the last event on disk when it was read: that index when the count
// is known. Only without a count does the leaf id place it; the leaf is the
// last tree event, and per-field state updates written after it (the final
// execution_status=finished among them) would otherwise override the base.
func (c *context) baseAt(i int, id string) bool {
	if c.base == nil {
		return false
	}
	if c.baseEventCount > 0 {
		return i == c.baseEventCount-1
	}
	return c.base.LeafEventID != "" && id == c.base.LeafEventID
}

// attributeByResponse adds the base's calls made by response id, while no
// stats update has been seen.
func (s *State) attributeByResponse(i int, id string) {
	if s.statsSeen || id == "" {
		return
	}
	calls := s.ctx.byResponse()[id]
	if len(calls) == 0 {
		return
	}
	m := s.Metrics
	for _, c := range calls {
		m = m.withCall(c)
	}
	s.setMetrics(i, m)
}

// attributeByTime adds the base's calls without response id whose cost
// timestamp is not after the event's time. Event times are naive and read
// as UTC, the zone of the agent-server's sandboxes.
func (s *State) attributeByTime(i int, at time.Time) {
	if s.statsSeen || s.attributed >= len(s.ctx.byTime) || at.IsZero() {
		return
	}
	t := float64(at.UnixNano()) / 1e9
	m := s.Metrics
	n := s.attributed
	for n < len(s.ctx.byTime) && s.ctx.byTime[n].at <= t {
		m = m.withCall(s.ctx.byTime[n])
		n++
	}
	if n == s.attributed {
		return
	}
	s.attributed = n
	s.setMetrics(i, m)
}

// withCall returns m with one more LLM call; ByUsage is copied, never
// written in place, because it is shared with earlier States.
func (m Metrics) withCall(c llmCall) Metrics {
	by := make([]Usage, len(m.ByUsage), len(m.ByUsage)+1)
	copy(by, m.ByUsage)
	k := slices.IndexFunc(by, func(u Usage) bool { return u.UsageID == c.usageID })
	if k < 0 {
		by = append(by, Usage{UsageID: c.usageID, Model: c.model})
		slices.SortFunc(by, func(a, b Usage) int { return cmp.Compare(a.UsageID, b.UsageID) })
		k = slices.IndexFunc(by, func(u Usage) bool { return u.UsageID == c.usageID })
	}
	u := &by[k]
	t := c.tokens
	u.CostUSD += c.cost
	u.Prompt += t.Prompt
	u.Completion += t.Completion
	u.CacheRead += t.CacheRead
	u.CacheWrite += t.CacheWrite
	u.Reasoning += t.Reasoning
	u.LLMCalls++
	if t.PerTurn > 0 {
		u.ContextUsed = t.PerTurn
	} else {
		u.ContextUsed = t.Prompt + t.Completion
	}
	u.ContextWindow = max(u.ContextWindow, t.ContextWindow)
	if u.Model == "" {
		u.Model = t.Model
	}
	u.CostKnown = u.CostUSD != 0 || u.Tokens() == 0
	return combine(by)
}
