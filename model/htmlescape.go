package model

import (
	"encoding/binary"
	"ohwatch/internal/jsonx"
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
			dst = appendHTMLEscape(dst, c)
			start = i + 1
		case c == 0xe2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xa8:
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xf])
			i += 2
			start = i + 1
		}
		i++
	}
	return append(dst, src[start:]...)
}

// appendHTMLEscape appends the escape of '<', '>' or '&' as encoding/json
// writes it.
func appendHTMLEscape(dst []byte, c byte) []byte {
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// hexDigits are the digits of a \u escape, in lower case as encoding/json
// writes them.
const hexDigits = "0123456789abcdef"

// mayEscapeHTML reports whether the eight bytes of w may hold '<', '>',
// '&' or 0xe2 (the first byte of U+2028 and U+2029).
func mayEscapeHTML(w uint64) bool {
	return jsonx.HasZero(w^(jsonx.Ones*'<'))|jsonx.HasZero(w^(jsonx.Ones*'>'))|jsonx.HasZero(w^(jsonx.Ones*'&'))|jsonx.HasZero(w^(jsonx.Ones*0xe2)) != 0
}
