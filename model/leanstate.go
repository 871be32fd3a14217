package model

import (
	"ohwatch/format"
	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// decodeStateUpdate reads a ConversationStateUpdateEvent. Only the value of
// the keys the reducer follows is read (execution_status and its legacy
// name agent_status, stats, confirmation_policy, and those three inside a
// full_state snapshot); the value of any other key is kept in Raw only.
func decodeStateUpdate(r *leanReader, f *topFields) (Body, string) {
	u := &StateUpdate{Key: sanitize.Line(r.str(f.key, "key"))}
	switch u.Key {
	case "execution_status", "agent_status":
		u.ExecutionStatus = sanitize.Line(r.str(f.value, "value"))
		return u, capLine(u.Key + "=" + u.ExecutionStatus)
	case "stats":
		if u.Stats = f.stats; u.Stats == nil {
			u.Stats = readStats(r, f.value, "value")
		}
		return u, statsSummary(u.Stats)
	case "confirmation_policy":
		u.ConfirmationPolicy = policyKind(r, f.value, "value")
		return u, capLine("confirmation_policy=" + u.ConfirmationPolicy)
	case "full_state":
		u.FullState = true
		jsonx.EachField(r.object(f.value, "value"), func(key, val []byte) bool {
			switch string(key) {
			case "execution_status":
				u.ExecutionStatus = sanitize.Line(r.str(val, "value.execution_status"))
			case "agent_status":
				if u.ExecutionStatus == "" {
					u.ExecutionStatus = sanitize.Line(r.str(val, "value.agent_status"))
				}
			case "stats":
				u.Stats = readStats(r, val, "value.stats")
			case "confirmation_policy":
				u.ConfirmationPolicy = policyKind(r, val, "value.confirmation_policy")
			case "leaf_event_id":
				u.LeafEventID = r.str(val, "value.leaf_event_id")
			}
			return true
		})
		if u.ExecutionStatus == "" {
			return u, "full_state"
		}
		return u, "full_state (" + u.ExecutionStatus + ")"
	}
	return u, otherKeySummary(u.Key, f.value)
}

// policyKind reads the kind of a confirmation policy object.
func policyKind(r *leanReader, v []byte, field string) string {
	var kind string
	jsonx.EachField(r.object(v, field), func(key, val []byte) bool {
		if string(key) == "kind" {
			kind = sanitize.Line(r.str(val, field+".kind"))
		}
		return true
	})
	return kind
}

// otherKeySummary describes an update of a key the reducer does not follow:
// "key=value" for a short scalar, "key updated" otherwise.
func otherKeySummary(key string, v []byte) string {
	if key == "" {
		return "state update"
	}
	switch jsonx.Type(v) {
	case "string":
		return capLine(key + "=" + jsonx.Unquote(v, lineByteLimit, true))
	case "number", "boolean":
		return capLine(key + "=" + string(v))
	}
	return key + " updated"
}

// statsSummary describes a stats update: "stats: $0.0123, 35.9k tokens".
func statsSummary(s *Stats) string {
	if s == nil {
		return "stats"
	}
	cost, tokens := s.Totals()
	// One buffer, one string: a third of the events are stats updates.
	var buf [64]byte
	b := append(buf[:0], "stats: "...)
	if cost == 0 && tokens > 0 {
		// Tokens spent at no reported price: the price is unknown, which
		// is not the same as free.
		b = append(b, "cost unknown"...)
	} else {
		b = format.AppendCost(b, cost, true)
	}
	b = append(format.AppendCount(append(b, ", "...), tokens), " tokens"...)
	return string(b)
}

// Totals sums the accumulated cost and the prompt and completion tokens
// over every usage id: the conversation's combined spend.
func (s *Stats) Totals() (costUSD float64, tokens int64) {
	if s == nil {
		return 0, 0
	}
	for _, m := range s.UsageToMetrics {
		if m == nil {
			continue
		}
		costUSD += m.AccumulatedCost
		tokens += m.Accumulated.Prompt + m.Accumulated.Completion
	}
	return costUSD, tokens
}
