package jsonx

import (
	"encoding/binary"
)

// AppendHTMLEscaped appends compact JSON src as encoding/json embeds a
// json.RawMessage: <, > and & as \u escapes, and U+2028 and U+2029
// escaped. Outside strings valid JSON holds none of them, so this is the
// same value.
func AppendHTMLEscaped(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); {
		// Eight bytes at a time past the runs holding none of the four
		// bytes that start an escape: most of an event is plain text,
		// and a byte at a time this was a tenth of a --json replay.
		if i+8 <= len(src) && !mayEscapeHTML(binary.LittleEndian.Uint64(src[i:])) {
			i += 8
			continue
		}
		switch c := src[i]; {
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, src[start:i]...)
			dst = AppendRuneEscape(dst, rune(c))
			start = i + 1
		case c == 0xe2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xa8:
			dst = append(dst, src[start:i]...)
			dst = AppendRuneEscape(dst, 0x2028+rune(src[i+2]-0xa8))
			i += 2
			start = i + 1
		}
		i++
	}
	return append(dst, src[start:]...)
}

// mayEscapeHTML reports whether the eight bytes of w may hold '<', '>',
// '&' or 0xe2 (the first byte of U+2028 and U+2029).
func mayEscapeHTML(w uint64) bool {
	return HasZero(w^(Ones*'<'))|HasZero(w^(Ones*'>'))|HasZero(w^(Ones*'&'))|HasZero(w^(Ones*0xe2)) != 0
}
