package model

import (
	"bytes"
	"errors"
	"fmt"
)

// DecodeStats reads a ConversationStats object ({"usage_to_metrics": {…}},
// or the legacy "service_to_metrics") in either of its forms: the snapshot
// a per-field `stats` update carries, or the full form with the cost,
// latency and token-usage lists that full_state, REST and base_state.json
// carry. It is the one reader of stats for state updates and base states.
// raw is copied first: the result shares no memory with the caller's bytes.
func DecodeStats(raw []byte) (*Stats, error) {
	raw = bytes.Clone(raw)
	start := skipWS(raw, 0)
	end, err := valueEnd(raw, start, 0)
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
	eachField(obj, func(key, val []byte) bool {
		switch string(key) {
		case "usage_to_metrics", "service_to_metrics":
			usages := r.object(val, "usage_to_metrics")
			eachField(usages, func(id, m []byte) bool {
				if absent(m) {
					return true
				}
				name := SanitizeLine(intern(id))
				st.UsageToMetrics[name] = readMetrics(r, m)
				return true
			})
		}
		return true
	})
	return st
}

// readMetrics reads one usage's Metrics. Field names in type errors are
// constants: building the full path for every field would allocate on the
// hot path.
func readMetrics(r *leanReader, v []byte) *Metrics {
	const field = "metrics"
	obj := r.object(v, field)
	m := &Metrics{}
	eachField(obj, func(key, val []byte) bool {
		switch string(key) {
		case "model_name":
			m.ModelName = SanitizeLine(r.str(val, "metrics.model_name"))
		case "accumulated_cost":
			m.AccumulatedCost = r.number(val, "metrics.accumulated_cost")
		case "max_budget_per_task":
			if !absent(val) {
				b := r.number(val, "metrics.max_budget_per_task")
				m.MaxBudgetPerTask = &b
			}
		case "accumulated_token_usage":
			if !absent(val) {
				m.Accumulated = readTokenUsage(r, val, "metrics.accumulated_token_usage")
			}
		case "costs":
			eachElement(r.array(val, "metrics.costs"), func(el []byte) bool {
				m.Costs = append(m.Costs, readCost(r, el, "metrics.costs[]"))
				return true
			})
		case "response_latencies":
			eachElement(r.array(val, "metrics.response_latencies"), func(el []byte) bool {
				m.Latencies = append(m.Latencies, readLatency(r, el, "metrics.response_latencies[]"))
				return true
			})
		case "token_usages":
			eachElement(r.array(val, "metrics.token_usages"), func(el []byte) bool {
				m.TokenUsages = append(m.TokenUsages, readTokenUsage(r, el, "metrics.token_usages[]"))
				return true
			})
		}
		return true
	})
	return m
}

// readTokenUsage reads one TokenUsage.
func readTokenUsage(r *leanReader, v []byte, field string) TokenUsage {
	var t TokenUsage
	count := func(val []byte, name string) int64 {
		n, _ := r.integer(val, name)
		return n
	}
	eachField(r.object(v, field), func(key, val []byte) bool {
		switch string(key) {
		case "model":
			t.Model = SanitizeLine(r.str(val, "token_usage.model"))
		case "prompt_tokens":
			t.Prompt = count(val, "token_usage.prompt_tokens")
		case "completion_tokens":
			t.Completion = count(val, "token_usage.completion_tokens")
		case "cache_read_tokens":
			t.CacheRead = count(val, "token_usage.cache_read_tokens")
		case "cache_write_tokens":
			t.CacheWrite = count(val, "token_usage.cache_write_tokens")
		case "reasoning_tokens":
			t.Reasoning = count(val, "token_usage.reasoning_tokens")
		case "context_window":
			t.ContextWindow = count(val, "token_usage.context_window")
		case "per_turn_token":
			t.PerTurn = count(val, "token_usage.per_turn_token")
		case "response_id":
			t.ResponseID = r.str(val, "token_usage.response_id")
		}
		return true
	})
	return t
}

// readCost reads one priced call.
func readCost(r *leanReader, v []byte, field string) Cost {
	var c Cost
	eachField(r.object(v, field), func(key, val []byte) bool {
		switch string(key) {
		case "model":
			c.Model = SanitizeLine(r.str(val, "costs[].model"))
		case "cost":
			c.Cost = r.number(val, "costs[].cost")
		case "timestamp":
			c.Timestamp = r.number(val, "costs[].timestamp")
		}
		return true
	})
	return c
}

// readLatency reads one call's latency.
func readLatency(r *leanReader, v []byte, field string) Latency {
	var l Latency
	eachField(r.object(v, field), func(key, val []byte) bool {
		switch string(key) {
		case "model":
			l.Model = SanitizeLine(r.str(val, "response_latencies[].model"))
		case "latency":
			l.Latency = r.number(val, "response_latencies[].latency")
		case "response_id":
			l.ResponseID = r.str(val, "response_latencies[].response_id")
		}
		return true
	})
	return l
}
