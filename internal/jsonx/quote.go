package jsonx

import (
	"unicode/utf8"
)

// Quote chooses what AppendString escapes beyond the one rule every writer
// shares.
type Quote uint8

const (
	// HTML escapes <, > and & (as \u003c, \u003e, \u0026) and U+2028 and
	// U+2029, as encoding/json does by default: a line json.Marshal would
	// write comes out byte for byte.
	HTML Quote = 1 << iota
	// ASCII escapes every rune outside printable ASCII as \uXXXX (a
	// surrogate pair past the BMP; DEL as \u007f), as Python's json.dumps
	// does by default: the form tool-call arguments take upstream.
	ASCII
)

// hexDigits are the digits of a \u escape, in lower case as encoding/json
// and Python write them.
const hexDigits = "0123456789abcdef"

// AppendString appends s to dst as a JSON string. Every writer shares one
// rule: `"` and `\` are escaped, \b \f \n \r \t by name, the other C0
// controls as \u00xx, and each byte of invalid UTF-8 becomes \ufffd, so the
// result is always valid JSON. Everything else is written as it is, unless
// q asks for more (HTML, ASCII). With HTML it is what encoding/json writes
// for a string; with neither flag, what pydantic (serde_json) writes.
//
// It is hand-written, not strconv or encoding/json, because it runs on
// every header field of every headless JSON line: it steps over eight
// bytes of plain ASCII at a time and allocates nothing. The lines it is
// part of are written at 280-820 MB/s, json.Marshal's 44-91 MB/s
// (`go test -run '^$' -bench EventJSONRace ./headless`).
func AppendString(dst []byte, s string, q Quote) []byte {
	dst = append(dst, '"')
	html, ascii := q&HTML != 0, q&ASCII != 0
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time past plain ASCII: ids, kinds, times and
		// most summaries are nothing else.
		if i+8 <= len(s) && plainASCII(word(s, i), html) {
			i += 8
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && !(html && (c == '<' || c == '>' || c == '&')) && !(ascii && c == 0x7f) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscapedByte(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case ascii || html && (r == '\u2028' || r == '\u2029'):
			dst = append(dst, s[start:i]...)
			dst = AppendRuneEscape(dst, r)
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

// appendEscapedByte appends the escape of an ASCII byte AppendString does
// not write as it is.
func appendEscapedByte(dst []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// AppendRuneEscape appends r as a \uXXXX escape (lower-case hex), or as
// the escapes of its UTF-16 surrogate pair past the BMP. It is the one
// spelling of a \u escape: AppendString, AppendHTMLEscaped and the
// terminal-safe forms of raw JSON all write theirs through it.
func AppendRuneEscape(dst []byte, r rune) []byte {
	if r >= 0x10000 && r <= utf8.MaxRune {
		r -= 0x10000
		dst = appendU4(dst, 0xd800+(r>>10))
		return appendU4(dst, 0xdc00+(r&0x3ff))
	}
	return appendU4(dst, r)
}

func appendU4(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u',
		hexDigits[(r>>12)&0xf], hexDigits[(r>>8)&0xf], hexDigits[(r>>4)&0xf], hexDigits[r&0xf])
}

// Word-at-a-time tests: Ones has a 1 in every byte, highs the top bit of
// every byte.
const (
	Ones  = 0x0101010101010101
	highs = Ones * 0x80
)

// plainASCII reports whether the eight bytes of w are ASCII that a JSON
// string holds as they are: no control character, '"', '\\', no byte of a
// longer rune, and with html no '<', '>' or '&'. DEL is not plain, so
// that ASCII mode sees it (it is written as is otherwise).
func plainASCII(w uint64, html bool) bool {
	bad := HasLess(w, 0x20) | w&highs | HasZero(w^(Ones*'"')) | HasZero(w^(Ones*'\\')) | HasZero(w^(Ones*0x7f))
	if html {
		bad |= HasZero((w|Ones*2)^(Ones*'>')) | HasZero(w^(Ones*'&')) // '<' | 2 is '>'
	}
	return bad == 0
}

// word is the eight bytes of s from i, little-endian (one load: the
// compiler combines the shifts).
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// HasZero is non-zero exactly when a byte of w is zero.
func HasZero(w uint64) uint64 { return (w - Ones) &^ w & highs }

// HasLess is non-zero exactly when a byte of w is below n (n ≤ 128).
func HasLess(w, n uint64) uint64 { return (w - Ones*n) &^ w & highs }
