package model

import "slices"

// CallPrefix is the running total of one usage id's recorded LLM calls
// (base_state.json's per-call token_usages, in call order): tokens[k] is
// what the first k calls spent, so tokens[0] is zero.
type CallPrefix struct {
	tokens []callTotal
}

// callTotal is the part of a TokenUsage a prefix sums: with no string in
// it, the totals of a long conversation's calls are memory the collector
// does not scan.
type callTotal struct {
	Prompt, Completion, CacheRead, CacheWrite, Reasoning int64
}

// NewCallPrefix sums a usage's per-call token_usages in order.
func NewCallPrefix(m *Metrics) CallPrefix {
	p := CallPrefix{tokens: make([]callTotal, 1, len(m.TokenUsages)+1)}
	var run callTotal
	for _, t := range m.TokenUsages {
		run.Prompt += t.Prompt
		run.Completion += t.Completion
		run.CacheRead += t.CacheRead
		run.CacheWrite += t.CacheWrite
		run.Reasoning += t.Reasoning
		p.tokens = append(p.tokens, run)
	}
	return p
}

// Calls is the number of calls a stats update's accumulated usage
// accounts for: the k whose first k recorded calls add up to it exactly.
//
// Upstream the accumulated usage is the sum of every call the LLM made,
// on whatever branch (openhands-sdk llm/utils/metrics.py,
// Metrics.add_token_usage adds to accumulated_token_usage and appends to
// token_usages in one step; conversation_stats.py keeps one Metrics per
// usage id for the whole conversation), and its per-call lists are what
// ConversationState.stats holds (conversation/state.py). So a stats update
// names a prefix of those lists, and the call count at an event is that
// prefix's length: calls made on an abandoned branch count where the
// path's next update includes them, as their cost and tokens do, and the
// count at an event depends only on the update on its path.
//
// ok is false when no prefix matches (no base, or a base older than the
// update). Calls that spent nothing leave equal prefixes; the last one is
// taken, since an update follows the call it reports.
func (p CallPrefix) Calls(acc TokenUsage) (int, bool) {
	k, found := slices.BinarySearchFunc(p.tokens, acc.Prompt, func(t callTotal, prompt int64) int {
		switch {
		case t.Prompt < prompt:
			return -1
		case t.Prompt > prompt:
			return 1
		}
		return 0
	})
	if !found {
		return 0, false
	}
	match := -1
	for ; k < len(p.tokens) && p.tokens[k].Prompt == acc.Prompt; k++ {
		t := p.tokens[k]
		if t.Completion == acc.Completion && t.CacheRead == acc.CacheRead && t.CacheWrite == acc.CacheWrite &&
			t.Reasoning == acc.Reasoning {
			match = k
		}
	}
	return match, match >= 0
}
