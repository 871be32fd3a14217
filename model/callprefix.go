package model

import "slices"

// CallPrefix is the running total of one usage id's recorded LLM calls
// (base_state.json's per-call token_usages, in call order): what the
// first k calls spent, for every k.
//
// It keeps the totals only every prefixStride calls and sums the calls
// between from the list itself, which the Metrics hold anyway: the totals
// of every call were 40 bytes a call, 12 MB beside the lists for the
// 304,079 calls of a million-event conversation, the heap of a `state`
// at its peak.
type CallPrefix struct {
	calls []TokenUsage // the Metrics' own list, never written
	// every[s] is what the first s*prefixStride calls spent, so every[0]
	// is zero.
	every []callTotal
	// dense, set when a call spent a negative count (so the totals are
	// not sorted), holds the totals of every prefix, searched as they
	// always were.
	dense []callTotal
}

// prefixStride is the distance between kept totals: a lookup sums at
// most this many calls beyond the one it finds by binary search.
const prefixStride = 32

// callTotal is the part of a TokenUsage a prefix sums: with no string in
// it, the totals of a long conversation's calls are memory the collector
// does not scan.
type callTotal struct {
	Prompt, Completion, CacheRead, CacheWrite, Reasoning int64
}

// plus is t with call u added.
func (t callTotal) plus(u *TokenUsage) callTotal {
	return callTotal{t.Prompt + u.Prompt, t.Completion + u.Completion, t.CacheRead + u.CacheRead,
		t.CacheWrite + u.CacheWrite, t.Reasoning + u.Reasoning}
}

// matches reports whether t is the accumulated usage acc.
func (t callTotal) matches(acc *TokenUsage) bool {
	return t.Prompt == acc.Prompt && t.Completion == acc.Completion && t.CacheRead == acc.CacheRead &&
		t.CacheWrite == acc.CacheWrite && t.Reasoning == acc.Reasoning
}

// NewCallPrefix sums a usage's per-call token_usages in order.
func NewCallPrefix(m *Metrics) CallPrefix {
	p := CallPrefix{calls: m.TokenUsages, every: make([]callTotal, 1, len(m.TokenUsages)/prefixStride+1)}
	var run callTotal
	for k := range m.TokenUsages {
		t := &m.TokenUsages[k]
		if t.Prompt < 0 || t.Completion < 0 || t.CacheRead < 0 || t.CacheWrite < 0 || t.Reasoning < 0 {
			return newDensePrefix(m)
		}
		run = run.plus(t)
		if (k+1)%prefixStride == 0 {
			p.every = append(p.every, run)
		}
	}
	return p
}

// newDensePrefix is a prefix holding the totals of every prefix.
func newDensePrefix(m *Metrics) CallPrefix {
	p := CallPrefix{dense: make([]callTotal, 1, len(m.TokenUsages)+1)}
	var run callTotal
	for k := range m.TokenUsages {
		run = run.plus(&m.TokenUsages[k])
		p.dense = append(p.dense, run)
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
	if p.dense != nil {
		return p.denseCalls(&acc)
	}
	if len(p.every) == 0 {
		return 0, false
	}
	// The last kept total below the prompt count (the totals only grow):
	// the first prefix that may match comes after it.
	s, _ := slices.BinarySearchFunc(p.every, acc.Prompt, comparePrompt)
	k := 0
	if s > 0 {
		s--
		k = s * prefixStride
	}
	run, match := p.every[s], -1
	for {
		if run.Prompt > acc.Prompt {
			break
		}
		if run.matches(&acc) {
			match = k
		}
		if k == len(p.calls) {
			break
		}
		run = run.plus(&p.calls[k])
		k++
	}
	return max(match, 0), match >= 0
}

// denseCalls is Calls over the totals of every prefix.
func (p CallPrefix) denseCalls(acc *TokenUsage) (int, bool) {
	k, found := slices.BinarySearchFunc(p.dense, acc.Prompt, comparePrompt)
	if !found {
		return 0, false
	}
	match := -1
	for ; k < len(p.dense) && p.dense[k].Prompt == acc.Prompt; k++ {
		if p.dense[k].matches(acc) {
			match = k
		}
	}
	return max(match, 0), match >= 0
}

// comparePrompt orders a total by its prompt count.
func comparePrompt(t callTotal, prompt int64) int {
	switch {
	case t.Prompt < prompt:
		return -1
	case t.Prompt > prompt:
		return 1
	}
	return 0
}
