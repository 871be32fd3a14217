package model

import (
	"errors"
	"fmt"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// DecodeBaseState reads what ohwatch needs of a base_state.json, a REST
// ConversationInfo (the same shape plus title) or a full_state value: the
// normalised id, title, execution status (or the legacy agent_status),
// confirmation policy kind, max_iterations, leaf_event_id and the stats
// with their full lists. Raw keeps raw, which the caller must not modify
// afterwards: the strings read from it share its memory. It fails when raw is not one JSON
// object or a field it reads has the wrong type.
func DecodeBaseState(raw []byte) (*BaseState, error) {
	start := jsonx.SkipWS(raw, 0)
	if start >= len(raw) {
		return nil, errors.New("base state: empty input")
	}
	if raw[start] != '{' {
		return nil, fmt.Errorf("base state: %w", jsonx.SyntaxError(raw, start, "looking for '{'"))
	}
	b := &BaseState{Raw: raw}
	var r leanReader
	var status, legacyStatus, policy, stats []byte
	end, err := jsonx.ObjectFields(raw, start, func(key, val []byte) {
		switch string(key) {
		case "id":
			b.ID = NormalizeConversationID(r.str(val, "id"))
		case "title":
			b.Title = r.line(val, "title")
		case "execution_status":
			status = val
		case "agent_status":
			legacyStatus = val
		case "confirmation_policy":
			policy = val
		case "max_iterations":
			n, _ := r.integer(val, "max_iterations")
			b.MaxIterations = int(n)
		case "leaf_event_id":
			b.LeafEventID = r.str(val, "leaf_event_id")
		case "stats":
			stats = val
		case DerivedKey:
			b.Derived = string(val) == "true"
		}
	})
	if err != nil {
		return nil, fmt.Errorf("base state: %w", err)
	}
	if rest := jsonx.SkipWS(raw, end); rest < len(raw) {
		return nil, fmt.Errorf("base state: %w", jsonx.SyntaxError(raw, rest, "after the end of the object"))
	}
	b.ExecutionStatus = sanitize.Line(r.str(status, "execution_status"))
	if b.ExecutionStatus == "" {
		b.ExecutionStatus = sanitize.Line(r.str(legacyStatus, "agent_status"))
	}
	b.ConfirmationPolicy = policyKind(&r, policy, "confirmation_policy")
	b.Stats = readStats(&r, stats, "stats")
	if r.reason != "" {
		return nil, errors.New("base state: " + r.reason)
	}
	return b, nil
}
