package headless

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"ohwatch/model"
)

// eventJSON writes the JSON lines of events, byte for byte as
// json.Marshal writes an eventLine, without its reflection and without
// compacting each raw event a second time: with one line per event of a
// long recording, that work was most of `replay --headless --json`. Its
// buffers are kept from line to line.
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
	b = appendJSONString(b, l.Type)
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, int64(l.Index), 10)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, int64(l.N), 10)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, l.ID)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, l.Kind)
	if l.Source != "" {
		b = append(b, `,"source":`...)
		b = appendJSONString(b, l.Source)
	}
	if l.Timestamp != "" {
		b = append(b, `,"timestamp":`...)
		b = appendJSONString(b, l.Timestamp)
	}
	b = append(b, `,"summary":`...)
	b = appendJSONString(b, l.Summary)
	if l.Risk != "" {
		b = append(b, `,"security_risk":`...)
		b = appendJSONString(b, l.Risk)
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
		return model.AppendTerminalSafeRawMessage(b, &e.scratch, raw)
	}
	safe, ok := model.AppendTerminalSafeJSON(e.safe[:0], &e.scratch, raw)
	if !ok {
		safe = append(safe[:0], invalidJSON...)
	}
	e.safe = safe
	return model.AppendHTMLEscaped(b, safe)
}

// invalidJSON stands for an event whose raw bytes are not valid JSON, so a
// JSONL line is always valid.
const invalidJSON = `"<invalid JSON>"`

// hexDigits are the digits of a \u escape, in lower case as encoding/json
// writes them.
const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string exactly as encoding/json
// writes it: quotes, backslashes and control characters escaped (\b \f \n
// \r \t by name), <, > and & as \u escapes (its HTML escaping), invalid
// UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time past plain ASCII: ids, kinds, times and
		// most summaries are nothing else.
		if i+8 <= len(s) && plainASCII(word(s, i)) {
			i += 8
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Word-at-a-time tests: ones has a 1 in every byte, highs the top bit of
// every byte.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainASCII reports whether the eight bytes of w are ASCII that a JSON
// string holds as they are: no control character, '"', '\\', '<', '>' or
// '&' (encoding/json escapes the last three), and no byte of a longer rune.
func plainASCII(w uint64) bool {
	return hasLess(w, 0x20)|w&highs|hasZeroByte(w^(ones*'"'))|hasZeroByte(w^(ones*'\\'))|
		hasZeroByte((w|ones*2)^(ones*'>'))|hasZeroByte(w^(ones*'&')) == 0 // '<' | 2 is '>'
}

// word is the eight bytes of s from i, little-endian (one load: the
// compiler combines the shifts).
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hasZeroByte is non-zero exactly when a byte of x is zero.
func hasZeroByte(x uint64) uint64 { return (x - ones) &^ x & highs }

// hasLess is non-zero exactly when a byte of x is below n (n ≤ 128).
func hasLess(x, n uint64) uint64 { return (x - ones*n) &^ x & highs }
