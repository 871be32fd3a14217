package model_test

import (
	"encoding/json"
	"testing"

	"github.com/tidwall/gjson"

	"ohwatch/model"
)

// The race behind the hand-written decoder (model.Decode over jsonx): the
// same generated events read by Decode in full and by the alternatives
// reading only the fields every summary needs, a lower bound of what a
// decoder on them would cost (no stats, no per-kind bodies):
//
//	nice go test -run '^$' -bench DecodeRace -count 3 ./model
//	GOEXPERIMENT=jsonv2 nice go test -run '^$' -bench DecodeRace -count 3 ./model
//
// Figures are in docs/performance.md.

// minimalEvent is the least an event decoder reads: the envelope, the
// nested action's or observation's kind and first fields, a message's
// text and a state update's key.
type minimalEvent struct {
	ID         string `json:"id"`
	Timestamp  string `json:"timestamp"`
	Source     string `json:"source"`
	Kind       string `json:"kind"`
	ToolName   string `json:"tool_name"`
	ToolCallID string `json:"tool_call_id"`
	Action     *struct {
		Kind    string `json:"kind"`
		Command string `json:"command"`
		Path    string `json:"path"`
	} `json:"action"`
	Observation *struct {
		Kind     string                  `json:"kind"`
		Content  []struct{ Text string } `json:"content"`
		ExitCode *int                    `json:"exit_code"`
	} `json:"observation"`
	LLMMessage *struct {
		Role    string                  `json:"role"`
		Content []struct{ Text string } `json:"content"`
	} `json:"llm_message"`
	Key string `json:"key"`
}

// minimalPaths are minimalEvent's fields as gjson paths.
var minimalPaths = []string{"id", "timestamp", "source", "kind", "tool_name", "tool_call_id",
	"action.kind", "action.command", "action.path", "observation.kind", "observation.content.0.text",
	"observation.exit_code", "llm_message.role", "llm_message.content.0.text", "key"}

// decodeRivals are the decoders raced against model.Decode; a file built
// with GOEXPERIMENT=jsonv2 adds encoding/json/v2.
var decodeRivals = map[string]func([]byte) (model.Event, error){
	"encoding-json-minimal": func(raw []byte) (model.Event, error) {
		var ev minimalEvent
		err := json.Unmarshal(raw, &ev)
		return model.Event{ID: ev.ID, Kind: ev.Kind}, err
	},
	"gjson-minimal": func(raw []byte) (model.Event, error) {
		if !gjson.ValidBytes(raw) {
			return model.Event{}, errInvalid
		}
		r := gjson.GetManyBytes(raw, minimalPaths...)
		return model.Event{ID: r[0].String(), Kind: r[3].String()}, nil
	},
}

var errInvalid = &json.SyntaxError{}

func BenchmarkDecodeRace(b *testing.B) {
	b.Run("hand-written-full", func(b *testing.B) { benchDecodeGenerated(b, model.Decode) })
	for name, decode := range decodeRivals {
		b.Run(name, func(b *testing.B) { benchDecodeGenerated(b, decode) })
	}
}
