package model

import (
	"encoding/json"
	"errors"
	"fmt"
)

// decodeJSON is the one place the model decodes JSON into Go types (full
// payloads, nested actions and observations, completion logs), so the
// decoder can be swapped for a faster one in a single line. The lean hot
// path (Decode, DecodeStats, DecodeBaseState) reads spans with its own
// scanner instead (jsonscan.go).
func decodeJSON(data []byte, v any) error {
	return json.Unmarshal(data, v)
}

// Detail decodes the event's full typed payload from Raw, on demand, for
// the one event being inspected or exported: a *MessageEvent,
// *ActionEvent (with its typed Action), *ObservationEvent (with its typed
// Observation), *SystemPromptEvent, … named after the upstream classes, or
// an *UnknownEvent for kinds without a type here. Text in the payload is as
// sent, not sanitised. When some fields have the wrong types the payload is
// returned as far as it could be decoded, with the error.
func (ev Event) Detail() (any, error) {
	if len(ev.Raw) == 0 {
		return nil, errors.New("event has no raw JSON")
	}
	switch ev.Kind {
	case "ActionEvent":
		d := &ActionEvent{}
		err := decodeJSON(ev.Raw, d)
		kind, action, aerr := decodeNestedAction(d.RawAction)
		d.ActionKind, d.Action = kind, action
		return d, detailError(ev.Kind, errors.Join(err, aerr))
	case "ObservationEvent":
		d := &ObservationEvent{}
		err := decodeJSON(ev.Raw, d)
		kind, obs, oerr := decodeNestedObservation(d.RawObservation)
		d.ObservationKind, d.Observation = kind, obs
		return d, detailError(ev.Kind, errors.Join(err, oerr))
	}
	d := newDetail(ev.Kind)
	if d == nil {
		return &UnknownEvent{Kind: ev.Kind, Raw: ev.Raw}, nil
	}
	return d, detailError(ev.Kind, decodeJSON(ev.Raw, d))
}

// detailError names the kind in a decoding error.
func detailError(kind string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", kind, err)
}

// newDetail returns the empty payload type of a top-level kind other than
// actions and observations, or nil when it has none.
func newDetail(kind string) any {
	switch kind {
	case "MessageEvent":
		return &MessageEvent{}
	case "SystemPromptEvent":
		return &SystemPromptEvent{}
	case "UserRejectObservation":
		return &UserRejectObservation{}
	case "AgentErrorEvent":
		return &AgentErrorEvent{}
	case "CondensationSummaryEvent":
		return &CondensationSummaryEvent{}
	case "ConversationStateUpdateEvent":
		return &ConversationStateUpdateEvent{}
	case "ConversationErrorEvent":
		return &ConversationErrorEvent{}
	case "Condensation":
		return &CondensationEvent{}
	case "CondensationRequest":
		return &CondensationRequestEvent{}
	case "PauseEvent":
		return &PauseEvent{}
	case "InterruptEvent":
		return &InterruptEvent{}
	case "HookExecutionEvent":
		return &HookExecutionEvent{}
	case "LLMCompletionLogEvent":
		return &LLMCompletionLogEvent{}
	case "StreamingDeltaEvent":
		return &StreamingDeltaEvent{}
	case "TokenEvent":
		return &TokenIDsEvent{}
	case "ACPToolCallEvent":
		return &ACPToolCallEvent{}
	case "ServerErrorEvent":
		return &ServerErrorEvent{}
	}
	return nil
}
