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
	k := KindNamed(ev.Kind)
	if k == nil {
		return &UnknownEvent{Kind: ev.Kind, Raw: ev.Raw}, nil
	}
	d, err := k.detail(ev.Raw)
	return d, detailError(ev.Kind, err)
}

// detailError names the kind in a decoding error.
func detailError(kind string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", kind, err)
}

// payload decodes the full payload of a kind whose payload type is T.
func payload[T any](raw []byte) (any, error) {
	d := new(T)
	return d, decodeJSON(raw, d)
}

// actionPayload decodes an ActionEvent with its typed nested action.
func actionPayload(raw []byte) (any, error) {
	d := &ActionEvent{}
	err := decodeJSON(raw, d)
	kind, action, aerr := decodeNestedAction(d.RawAction)
	d.ActionKind, d.Action = kind, action
	return d, errors.Join(err, aerr)
}

// observationPayload decodes an ObservationEvent with its typed nested
// observation.
func observationPayload(raw []byte) (any, error) {
	d := &ObservationEvent{}
	err := decodeJSON(raw, d)
	kind, obs, oerr := decodeNestedObservation(d.RawObservation)
	d.ObservationKind, d.Observation = kind, obs
	return d, errors.Join(err, oerr)
}
