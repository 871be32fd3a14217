package serve

import (
	"bytes"
	"encoding/json"
	"slices"

	"ohwatch/model"
)

// A per-field stats update carries each usage's accumulated figures only;
// the state a server reports (full_state, ConversationInfo) carries the
// per-call lists too: costs, response_latencies, token_usages
// (openhands-sdk llm/utils/metrics.py, Metrics; ConversationStats in
// conversation/conversation_stats.py). An SDK client counts LLM calls by
// those lists (RemoteConversation's stats), so serve reports them as they
// stood when the update was sent: the prefix of base_state.json's lists
// the accumulated usage adds up to (model.CallPrefix).

// callLists are one usage's per-call lists of base_state.json, each entry
// as recorded.
type callLists struct {
	prefix    model.CallPrefix
	costs     []json.RawMessage
	latencies []json.RawMessage
	usages    []json.RawMessage
}

// baseCallLists reads each usage's lists from base_state.json; nil when
// it has none.
func baseCallLists(base *model.BaseState) map[string]*callLists {
	if base == nil || base.Stats == nil || len(base.Raw) == 0 {
		return nil
	}
	var raw struct {
		Stats struct {
			Usage map[string]struct {
				Costs     []json.RawMessage `json:"costs"`
				Latencies []json.RawMessage `json:"response_latencies"`
				Usages    []json.RawMessage `json:"token_usages"`
			} `json:"usage_to_metrics"`
		} `json:"stats"`
	}
	if json.Unmarshal(base.Raw, &raw) != nil {
		return nil
	}
	out := map[string]*callLists{}
	for id, l := range raw.Stats.Usage {
		m := base.Stats.UsageToMetrics[id]
		if m == nil || len(m.TokenUsages) != len(l.Usages) {
			continue
		}
		out[id] = &callLists{prefix: model.NewCallPrefix(m), costs: l.Costs, latencies: l.Latencies, usages: l.Usages}
	}
	return out
}

// withCallLists returns a stats value whose usages all carry the per-call
// lists: as they were in base_state.json when the accumulated usage was
// reached, or empty when the base does not say. A usage that has them
// already is left as it is.
func withCallLists(stats json.RawMessage, lists map[string]*callLists) json.RawMessage {
	var v struct {
		Usage map[string]json.RawMessage `json:"usage_to_metrics"`
	}
	if json.Unmarshal(stats, &v) != nil || len(v.Usage) == 0 {
		return stats
	}
	ids := make([]string, 0, len(v.Usage))
	for id := range v.Usage {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var buf bytes.Buffer
	buf.WriteString(`{"usage_to_metrics":{`)
	for k, id := range ids {
		if k > 0 {
			buf.WriteByte(',')
		}
		buf.Write(mustJSON(id))
		buf.WriteByte(':')
		buf.Write(usageWithLists(v.Usage[id], lists[id]))
	}
	buf.WriteString(`}}`)
	return buf.Bytes()
}

// usageWithLists completes one usage's Metrics object as model_dump
// writes it: the three lists appended when missing, and
// max_budget_per_task as null when base_state.json (written with
// exclude_none) left it out.
func usageWithLists(m json.RawMessage, l *callLists) json.RawMessage {
	var fields struct {
		Costs  json.RawMessage  `json:"costs"`
		Budget *json.RawMessage `json:"max_budget_per_task"`
		Acc    struct {
			Prompt     int64 `json:"prompt_tokens"`
			Completion int64 `json:"completion_tokens"`
			CacheRead  int64 `json:"cache_read_tokens"`
			CacheWrite int64 `json:"cache_write_tokens"`
			Reasoning  int64 `json:"reasoning_tokens"`
		} `json:"accumulated_token_usage"`
	}
	m = bytes.TrimSpace(m)
	if json.Unmarshal(m, &fields) != nil || len(m) < 2 || m[len(m)-1] != '}' || (fields.Costs != nil && fields.Budget != nil) {
		return m
	}
	out := make([]byte, 0, len(m)+64)
	out = append(out, m[:len(m)-1]...)
	sep := func() {
		if len(bytes.TrimSpace(out[1:])) > 0 {
			out = append(out, ',')
		}
	}
	if fields.Budget == nil {
		sep()
		out = append(out, `"max_budget_per_task":null`...)
	}
	if fields.Costs == nil {
		n := 0
		if l != nil {
			a := fields.Acc
			if k, ok := l.prefix.Calls(model.TokenUsage{Prompt: a.Prompt, Completion: a.Completion, CacheRead: a.CacheRead,
				CacheWrite: a.CacheWrite, Reasoning: a.Reasoning}); ok {
				n = k
			}
		}
		sep()
		out = append(out, `"costs":`...)
		out = appendList(out, l, n, func(l *callLists) []json.RawMessage { return l.costs })
		out = append(out, `,"response_latencies":`...)
		out = appendList(out, l, n, func(l *callLists) []json.RawMessage { return l.latencies })
		out = append(out, `,"token_usages":`...)
		out = appendList(out, l, n, func(l *callLists) []json.RawMessage { return l.usages })
	}
	return append(out, '}')
}

// appendList appends the first n entries of one of l's lists as a JSON
// array (fewer when the list is shorter).
func appendList(dst []byte, l *callLists, n int, list func(*callLists) []json.RawMessage) []byte {
	dst = append(dst, '[')
	if l != nil {
		entries := list(l)
		for k := range min(n, len(entries)) {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, entries[k]...)
		}
	}
	return append(dst, ']')
}
