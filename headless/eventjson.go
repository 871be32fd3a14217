package headless

import (
	"bytes"
	"strconv"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// eventJSON writes the JSON lines of events, byte for byte as
// json.Marshal writes an eventLine, without its reflection and without
// compacting each raw event a second time: with one line per event of a
// long recording, that work was most of `replay --headless --json`. Its
// buffers are kept from line to line.
//
// It pays: over a generated 20k-event conversation
// (`go test -run '^$' -bench EventJSONRace ./headless`) it writes 280-820
// MB/s of events as lines, json.Marshal of the same eventLine 44-91 MB/s
// and encoding/json/v2 50-63 MB/s: 4-9x on `replay --headless --json`.
type eventJSON struct {
	line    []byte
	safe    []byte
	scratch bytes.Buffer
}

// append builds l's line, its newline included, in the line buffer and
// returns it; raw is the event's JSON as recorded, decoded when
// model.Decode accepted it (see reducer.Log.Decoded).
func (e *eventJSON) append(l eventLine, raw []byte, decoded bool) []byte {
	b := e.appendEvent(e.header(l), raw, decoded)
	e.line = append(b, '}', '\n')
	return e.line
}

// appendMade is append for an event whose part was made already (by
// appendEvent: jsonahead.go).
func (e *eventJSON) appendMade(l eventLine, event []byte) []byte {
	b := append(e.header(l), event...)
	e.line = append(b, '}', '\n')
	return e.line
}

// header starts l's line in the line buffer, up to its event.
func (e *eventJSON) header(l eventLine) []byte {
	b := append(e.line[:0], `{"type":`...)
	b = jsonx.AppendString(b, l.Type, jsonx.HTML)
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, int64(l.Index), 10)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, int64(l.N), 10)
	b = append(b, `,"id":`...)
	b = jsonx.AppendString(b, l.ID, jsonx.HTML)
	b = append(b, `,"kind":`...)
	b = jsonx.AppendString(b, l.Kind, jsonx.HTML)
	if l.Source != "" {
		b = append(b, `,"source":`...)
		b = jsonx.AppendString(b, l.Source, jsonx.HTML)
	}
	if l.Timestamp != "" {
		b = append(b, `,"timestamp":`...)
		b = jsonx.AppendString(b, l.Timestamp, jsonx.HTML)
	}
	b = append(b, `,"summary":`...)
	b = jsonx.AppendString(b, l.Summary, jsonx.HTML)
	if l.Risk != "" {
		b = append(b, `,"security_risk":`...)
		b = jsonx.AppendString(b, l.Risk, jsonx.HTML)
	}
	if l.Awaiting {
		b = append(b, `,"awaiting_confirmation":true`...)
	}
	return append(b, `,"event":`...)
}

// appendEvent appends a line's event: raw made terminal-safe and escaped
// as json.Marshal escapes a RawMessage, or a marker when raw is no JSON.
func (e *eventJSON) appendEvent(b, raw []byte, decoded bool) []byte {
	if decoded {
		// Bytes the log stores were accepted by Decode: validating them
		// again was a third of this line's work.
		return sanitize.AppendRawMessage(b, &e.scratch, raw)
	}
	safe, ok := sanitize.AppendJSON(e.safe[:0], &e.scratch, raw)
	if !ok {
		safe = append(safe[:0], invalidJSON...)
	}
	e.safe = safe
	return jsonx.AppendHTMLEscaped(b, safe)
}

// invalidJSON stands for an event whose raw bytes are not valid JSON, so a
// JSONL line is always valid.
const invalidJSON = `"<invalid JSON>"`
