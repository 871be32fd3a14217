package testevents

import (
	"encoding/json"
	"testing"
)

// structural are the keys whose string values Poisoned leaves alone, so
// the event still decodes as its kind and still pairs and folds the same.
var structural = map[string]bool{
	"kind": true, "id": true, "source": true, "timestamp": true, "tool_call_id": true, "action_id": true,
	"llm_response_id": true, "role": true, "type": true, "status": true,
}

// Poisoned returns raw with text appended to every string value but the
// structural ones: a hostile event for tests that no escape sequence
// reaches a terminal.
func Poisoned(tb testing.TB, raw []byte, text string) []byte {
	tb.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		tb.Fatal(err)
	}
	var walk func(key string, v any) any
	walk = func(key string, v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				x[k] = walk(k, val)
			}
		case []any:
			for i, val := range x {
				x[i] = walk(key, val)
			}
		case string:
			if !structural[key] {
				return x + text
			}
		}
		return v
	}
	out, err := json.Marshal(walk("", v))
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
