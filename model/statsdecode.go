package model

import (
	"bytes"
	"errors"
	"fmt"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// DecodeStats reads a ConversationStats object ({"usage_to_metrics": {…}},
// or the legacy "service_to_metrics") in either of its forms: the snapshot
// a per-field `stats` update carries, or the full form with the cost,
// latency and token-usage lists that full_state, REST and base_state.json
// carry. It is the one reader of stats for state updates and base states.
// raw is copied first: the result shares no memory with the caller's bytes.
func DecodeStats(raw []byte) (*Stats, error) {
	raw = bytes.Clone(raw)
	start := jsonx.SkipWS(raw, 0)
	end, err := jsonx.ValueEnd(raw, start, 0)
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	var r leanReader
	st := readStats(&r, raw[start:end], "stats")
	if r.reason != "" {
		return nil, errors.New("stats: " + r.reason)
	}
	return st, nil
}

// readStats reads a validated stats span; nil when it is null.
func readStats(r *leanReader, v []byte, field string) *Stats {
	obj := r.object(v, field)
	if obj == nil {
		return nil
	}
	st := &Stats{UsageToMetrics: map[string]*Metrics{}}
	jsonx.WalkMembers(obj, 0, func(key []byte, at int) int {
		switch string(key) {
		case "usage_to_metrics", "service_to_metrics":
			if obj[at] != '{' {
				r.object(jsonx.ValueAt(obj, at), "usage_to_metrics")
				return -1
			}
			return jsonx.WalkMembers(obj, at, func(id []byte, at int) int {
				if obj[at] == 'n' {
					return -1
				}
				m, end := readMetrics(r, obj, at)
				st.UsageToMetrics[sanitize.Line(internName(id))] = m
				return end
			})
		}
		return -1
	})
	return st
}

// readMetrics reads one usage's Metrics, the value at data[at], and
// returns the index past it. Field names in type errors are constants:
// building the full path for every field would allocate on the hot path.
func readMetrics(r *leanReader, data []byte, at int) (*Metrics, int) {
	m := &Metrics{}
	if data[at] != '{' {
		v := jsonx.ValueAt(data, at)
		r.object(v, "metrics")
		return m, at + len(v)
	}
	end := jsonx.WalkMembers(data, at, func(key []byte, at int) int {
		switch string(key) {
		case "model_name":
			v := jsonx.ValueAt(data, at)
			m.ModelName = sanitize.Line(r.name(v, "metrics.model_name"))
			return at + len(v)
		case "accumulated_cost":
			v := jsonx.ValueAt(data, at)
			m.AccumulatedCost = r.number(v, "metrics.accumulated_cost")
			return at + len(v)
		case "max_budget_per_task":
			v := jsonx.ValueAt(data, at)
			if !absent(v) {
				b := r.number(v, "metrics.max_budget_per_task")
				m.MaxBudgetPerTask = &b
			}
			return at + len(v)
		case "accumulated_token_usage":
			if data[at] == 'n' {
				return -1
			}
			var end int
			m.Accumulated, end = readTokenUsage(r, data, at, "metrics.accumulated_token_usage")
			return end
		case "costs":
			return eachListed(r, data, at, "metrics.costs", func(at int) int {
				c, end := readCost(r, data, at)
				m.Costs = append(m.Costs, c)
				return end
			})
		case "response_latencies":
			return eachListed(r, data, at, "metrics.response_latencies", func(at int) int {
				l, end := readLatency(r, data, at)
				m.Latencies = append(m.Latencies, l)
				return end
			})
		case "token_usages":
			return eachListed(r, data, at, "metrics.token_usages", func(at int) int {
				t, end := readTokenUsage(r, data, at, "metrics.token_usages[]")
				m.TokenUsages = append(m.TokenUsages, t)
				return end
			})
		}
		return -1
	})
	return m, end
}

// eachListed walks the array at data[at] with read, or records a mismatch
// when it is not an array (null is an empty list); it returns the index
// past the value.
func eachListed(r *leanReader, data []byte, at int, field string, read func(at int) int) int {
	if data[at] != '[' {
		v := jsonx.ValueAt(data, at)
		r.array(v, field)
		return at + len(v)
	}
	return jsonx.WalkElements(data, at, read)
}

// readTokenUsage reads the TokenUsage at data[at] and returns the index
// past it.
func readTokenUsage(r *leanReader, data []byte, at int, field string) (TokenUsage, int) {
	var t TokenUsage
	if data[at] != '{' {
		v := jsonx.ValueAt(data, at)
		r.object(v, field)
		return t, at + len(v)
	}
	end := jsonx.WalkMembers(data, at, func(key []byte, at int) int {
		v := jsonx.ValueAt(data, at)
		switch string(key) {
		case "model":
			t.Model = sanitize.Line(r.name(v, "token_usage.model"))
		case "response_id":
			t.ResponseID = r.str(v, "token_usage.response_id")
		default:
			if n, field := tokenCount(&t, key); n != nil {
				*n, _ = r.integer(v, field)
			}
		}
		return at + len(v)
	})
	return t, end
}

// tokenCount returns the count of t a token_usage key names, with the
// field's name for a type mismatch (a constant: building it per field
// would allocate on the hot path); nil for a key that is not a count.
// Both stats readers (this file's and fastStats) map keys through it.
func tokenCount(t *TokenUsage, key []byte) (*int64, string) {
	switch string(key) {
	case "prompt_tokens":
		return &t.Prompt, "token_usage.prompt_tokens"
	case "completion_tokens":
		return &t.Completion, "token_usage.completion_tokens"
	case "cache_read_tokens":
		return &t.CacheRead, "token_usage.cache_read_tokens"
	case "cache_write_tokens":
		return &t.CacheWrite, "token_usage.cache_write_tokens"
	case "reasoning_tokens":
		return &t.Reasoning, "token_usage.reasoning_tokens"
	case "context_window":
		return &t.ContextWindow, "token_usage.context_window"
	case "per_turn_token":
		return &t.PerTurn, "token_usage.per_turn_token"
	}
	return nil, ""
}

// readCost reads the priced call at data[at] and returns the index past
// it.
func readCost(r *leanReader, data []byte, at int) (Cost, int) {
	var c Cost
	if data[at] != '{' {
		v := jsonx.ValueAt(data, at)
		r.object(v, "metrics.costs[]")
		return c, at + len(v)
	}
	end := jsonx.WalkMembers(data, at, func(key []byte, at int) int {
		v := jsonx.ValueAt(data, at)
		switch string(key) {
		case "model":
			c.Model = sanitize.Line(r.name(v, "costs[].model"))
		case "cost":
			c.Cost = r.number(v, "costs[].cost")
		case "timestamp":
			c.Timestamp = r.number(v, "costs[].timestamp")
		}
		return at + len(v)
	})
	return c, end
}

// readLatency reads the call latency at data[at] and returns the index
// past it.
func readLatency(r *leanReader, data []byte, at int) (Latency, int) {
	var l Latency
	if data[at] != '{' {
		v := jsonx.ValueAt(data, at)
		r.object(v, "metrics.response_latencies[]")
		return l, at + len(v)
	}
	end := jsonx.WalkMembers(data, at, func(key []byte, at int) int {
		v := jsonx.ValueAt(data, at)
		switch string(key) {
		case "model":
			l.Model = sanitize.Line(r.name(v, "response_latencies[].model"))
		case "latency":
			l.Latency = r.number(v, "response_latencies[].latency")
		case "response_id":
			l.ResponseID = r.str(v, "response_latencies[].response_id")
		}
		return at + len(v)
	})
	return l, end
}
