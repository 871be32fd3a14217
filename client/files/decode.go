package files

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// decodeEvent decodes one event's bytes. where names the event in warnings
// ("events/event-00042-….json", "conv.jsonl:42"); it is called only when
// there is something to warn about, which keeps formatting off the path of
// the events that decode. On failure it returns a warning and ok=false; a
// decoded event whose fields do not fit its kind is kept (ok=true) with a
// warning saying why. Decoding never panics the loader: a panic in the
// decoder becomes a warning for that one event.
func decodeEvent(where func() string, raw []byte) (ev model.Event, warning string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ev, warning, ok = model.Event{}, sanitize.Line(fmt.Sprintf("%s: decoder failed: %v", where(), r)), false
		}
	}()
	ev, err := model.Decode(raw)
	if err != nil {
		return model.Event{}, sanitize.Line(where() + ": " + describeBadJSON(raw, err)), false
	}
	if u, isUnknown := ev.Body.(*model.Unknown); isUnknown && u.Reason != "" {
		warning = sanitize.Line(fmt.Sprintf("%s: %s kept as unknown: %s", where(), kindName(ev.Kind), u.Reason))
	}
	return ev, warning, true
}

// fileWhere names an event file in warnings.
func fileWhere(prefix, name string) func() string {
	return func() string { return prefix + name }
}

// kindName is an event's kind for a warning.
func kindName(kind string) string {
	if kind == "" {
		return "event without kind"
	}
	return kind
}

// describeBadJSON explains why raw is not an event (or a JSON document), in the terms a person
// fixing the file needs: empty, truncated, invalid JSON at which offset, or
// valid JSON that is not an object. It runs only on the failure path.
func describeBadJSON(raw []byte, decodeErr error) string {
	trimmed := bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty file (0 bytes)"
	}
	if len(trimmed) == 0 {
		return "no JSON (only whitespace)"
	}
	var syn *json.SyntaxError
	err := json.Unmarshal(trimmed, new(json.RawMessage))
	switch {
	case err == nil:
		if trimmed[0] != '{' {
			return "JSON is not an object (" + jsonTypeName(trimmed[0]) + ")"
		}
		return "invalid: " + decodeErr.Error()
	case errors.As(err, &syn):
		// Offset counts the bytes read up to and including the bad one.
		offset := max(syn.Offset-1, 0) + int64(len(raw)-len(bytes.TrimLeft(raw, " \t\r\n")))
		if syn.Error() == "unexpected end of JSON input" {
			return fmt.Sprintf("truncated JSON (ends at offset %d)", len(bytes.TrimRight(raw, " \t\r\n")))
		}
		return fmt.Sprintf("invalid JSON at offset %d: %s", offset, syn.Error())
	default:
		return "invalid JSON: " + err.Error()
	}
}

// jsonTypeName names the JSON type that starts with c.
func jsonTypeName(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
