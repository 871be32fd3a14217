package sanitize

import (
	"ohwatch/internal/jsonx"

	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// AppendRawMessage appends what json.Marshal writes for a
// json.RawMessage holding AppendDecodedJSON(raw): the same
// bytes with <, > and & as \u escapes (its HTML escaping; the U+2028 and
// U+2029 it escapes too are escapes already in the terminal-safe form).
// raw is bytes Decode accepted, as AppendDecodedJSON takes.
//
// It is a `replay --json` line's event: compacting it, checking it is
// terminal-safe and escaping it were three passes over every event's
// bytes; the check and the escaping are one pass here.
func AppendRawMessage(dst []byte, scratch *bytes.Buffer, raw []byte) []byte {
	scratch.Reset()
	buf := scratch.AvailableBuffer()
	compact := appendCompactRuns(buf, raw)
	if cap(compact) != cap(buf) {
		scratch.Write(compact) // keeps the grown buffer for the next event
	}
	if out, clean := appendCleanHTMLEscaped(dst, compact); clean {
		return out
	}
	return jsonx.AppendHTMLEscaped(dst, appendTerminalSafe(make([]byte, 0, len(compact)+16), compact))
}

// appendCleanHTMLEscaped appends src HTML-escaped as AppendHTMLEscaped
// does, when src is clean as isClean (single-line) tells: clean is false,
// and dst is returned as it came, when it is not.
func appendCleanHTMLEscaped(dst, src []byte) (out []byte, clean bool) {
	orig := len(dst)
	start := 0
	for i := 0; i < len(src); {
		// Eight bytes at a time past printable ASCII holding no <, >, &.
		if i+8 <= len(src) {
			w := binary.LittleEndian.Uint64(src[i:])
			if jsonx.HasLess(w, 0x20)|jsonx.HasZero(w^(jsonx.Ones*0x7f))|w&(jsonx.Ones*0x80)|
				jsonx.HasZero((w|jsonx.Ones*2)^(jsonx.Ones*'>'))|jsonx.HasZero(w^(jsonx.Ones*'&')) == 0 { // '<' | 2 is '>'
				i += 8
				continue
			}
		}
		c := src[i]
		switch {
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, src[start:i]...)
			dst = jsonx.AppendRuneEscape(dst, rune(c))
			i++
			start = i
		case c < 0x20 || c == 0x7f:
			return dst[:orig], false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 || unprintable(r) && !emojiJoiner(r, bytesView(src[:i]), bytesView(src[i+size:])) {
				return dst[:orig], false
			}
			i += size
		}
	}
	return append(dst, src[start:]...), true
}
