package model

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// summaryLimit caps summaries and the one-line texts lean bodies keep, in
// runes: enough for a list row on a wide terminal, small enough that a
// million resident events stay lean.
const summaryLimit = 200

// lineByteLimit is how many bytes of a string are unescaped to find its
// first line: a little more than summaryLimit runes of any script.
const lineByteLimit = 4 * summaryLimit

// leanReader reads typed values from the value spans of an event's fields.
// It never fails: a value of the wrong type reads as the zero value and the
// first such mismatch is kept in reason, which turns the event's body into
// *Unknown while its header survives.
type leanReader struct {
	reason string
}

// mismatch records the first field whose value has the wrong type.
func (r *leanReader) mismatch(field, want string, v []byte) {
	if r.reason == "" {
		r.reason = fmt.Sprintf("field %s: want %s, got %s", field, want, jsonx.Type(v))
	}
}

// absent reports whether a span is missing or null, which every optional
// field accepts.
func absent(v []byte) bool {
	return len(v) == 0 || v[0] == 'n'
}

// isString reports whether v is a string literal; a value of another
// type is a mismatch, and absent or null is neither.
func (r *leanReader) isString(v []byte, field string) bool {
	if len(v) > 0 && v[0] == '"' {
		return true
	}
	r.notString(v, field)
	return false
}

// notString records a mismatch for a value that is not a string, unless
// it is absent or null; apart from isString, and never inlined into it,
// so that isString is small enough to be inlined itself.
//
//go:noinline
func (r *leanReader) notString(v []byte, field string) {
	if !absent(v) {
		r.mismatch(field, "string", v)
	}
}

// str reads a short string field whole (ids, names, enums).
func (r *leanReader) str(v []byte, field string) string {
	if !r.isString(v, field) {
		return ""
	}
	return intern(v[1 : len(v)-1])
}

// line reads the sanitised first line of a possibly huge string field,
// capped to summaryLimit runes, without unescaping the rest.
func (r *leanReader) line(v []byte, field string) string {
	if !r.isString(v, field) {
		return ""
	}
	return capLine(jsonx.Unquote(v, lineByteLimit, true))
}

// text reads a short multi-line string field (task notes), sanitised and
// capped to lineByteLimit bytes.
func (r *leanReader) text(v []byte, field string) string {
	if !r.isString(v, field) {
		return ""
	}
	return sanitize.Text(jsonx.Unquote(v, lineByteLimit, false))
}

// boolean reads a boolean field.
func (r *leanReader) boolean(v []byte, field string) bool {
	if absent(v) {
		return false
	}
	if v[0] != 't' && v[0] != 'f' {
		r.mismatch(field, "boolean", v)
		return false
	}
	return v[0] == 't'
}

// integer reads an integer field; ok is false when it is absent or null.
func (r *leanReader) integer(v []byte, field string) (n int64, ok bool) {
	if absent(v) {
		return 0, false
	}
	if jsonx.Type(v) != "number" {
		r.mismatch(field, "integer", v)
		return 0, false
	}
	n, ok = jsonx.ParseInt(v)
	if !ok {
		r.mismatch(field, "integer", v)
	}
	return n, ok
}

// number reads a float field.
func (r *leanReader) number(v []byte, field string) float64 {
	if absent(v) {
		return 0
	}
	if jsonx.Type(v) != "number" {
		r.mismatch(field, "number", v)
		return 0
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil { // out of range: keep going with the closest value
		r.mismatch(field, "number in range", v)
	}
	return f
}

// object returns the span of an object field, nil when absent or null.
func (r *leanReader) object(v []byte, field string) []byte {
	if absent(v) {
		return nil
	}
	if v[0] != '{' {
		r.mismatch(field, "object", v)
		return nil
	}
	return v
}

// array returns the span of an array field, nil when absent or null.
func (r *leanReader) array(v []byte, field string) []byte {
	if absent(v) {
		return nil
	}
	if v[0] != '[' {
		r.mismatch(field, "array", v)
		return nil
	}
	return v
}

// stringList reads an array of strings (ids).
func (r *leanReader) stringList(v []byte, field string) []string {
	arr := r.array(v, field)
	if arr == nil {
		return nil
	}
	var out []string
	elem := field + "[]"
	jsonx.EachElement(arr, func(el []byte) bool {
		out = append(out, r.str(el, elem))
		return true
	})
	return out
}

// capLine sanitises s as one line and caps it to summaryLimit runes, with an
// ellipsis when cut.
func capLine(s string) string {
	s = strings.TrimSpace(sanitize.Line(s))
	if len(s) <= summaryLimit {
		return s // no more runes than bytes
	}
	// Runes are counted by their first bytes, not decoded: the line is
	// valid UTF-8 once sanitised, and decoding every rune of every
	// summary was a twentieth of decoding an event.
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i]&0xc0 == 0x80 {
			continue // a continuation byte
		}
		if n == summaryLimit {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// intern returns the string for a raw string body, reusing a constant for
// the values every event repeats (nested kinds, sources, tool names,
// statuses; Decode shares the table's names for top-level kinds) and
// aliasing the raw bytes for the rest (see alias), so a million resident
// events do not each carry their own copies. Bodies with escapes are
// unescaped into new strings.
func intern(body []byte) string {
	switch string(body) {
	case "TerminalAction":
		return "TerminalAction"
	case "TerminalObservation":
		return "TerminalObservation"
	case "FileEditorAction":
		return "FileEditorAction"
	case "FileEditorObservation":
		return "FileEditorObservation"
	case "TaskTrackerAction":
		return "TaskTrackerAction"
	case "TaskTrackerObservation":
		return "TaskTrackerObservation"
	case "FinishAction":
		return "FinishAction"
	case "FinishObservation":
		return "FinishObservation"
	case "ThinkAction":
		return "ThinkAction"
	case "ThinkObservation":
		return "ThinkObservation"
	case "MCPToolAction":
		return "MCPToolAction"
	case "MCPToolObservation":
		return "MCPToolObservation"
	case "agent":
		return "agent"
	case "user":
		return "user"
	case "environment":
		return "environment"
	case "hook":
		return "hook"
	case "assistant":
		return "assistant"
	case "terminal":
		return "terminal"
	case "file_editor":
		return "file_editor"
	case "task_tracker":
		return "task_tracker"
	case "finish":
		return "finish"
	case "think":
		return "think"
	case "LOW":
		return "LOW"
	case "MEDIUM":
		return "MEDIUM"
	case "HIGH":
		return "HIGH"
	case "UNKNOWN":
		return "UNKNOWN"
	case "execution_status":
		return "execution_status"
	case "stats":
		return "stats"
	case "running":
		return StatusRunning
	case "finished":
		return StatusFinished
	case "idle":
		return StatusIdle
	case "default":
		return "default"
	}
	// A vector search: a byte at a time, this loop over every id and
	// timestamp of an event was a twentieth of decoding it.
	if bytes.IndexByte(body, '\\') >= 0 {
		return jsonx.UnquoteBody(body, 0, false)
	}
	return jsonx.Alias(body)
}
