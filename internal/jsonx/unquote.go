package jsonx

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"ohwatch/internal/arena"
)

// Reading scalar values out of validated spans: strings (whole or only
// their first line), integers.

// Unquote decodes the string literal span v (with its quotes). When
// limit > 0 it stops once about limit bytes are decoded (an escape is
// decoded whole, and a rune is never cut in two); when firstLine is set it
// stops before the first newline.
func Unquote(v []byte, limit int, firstLine bool) string {
	return UnquoteBody(v[1:], limit, firstLine)
}

// UnquoteBody decodes a validated string literal from just after its
// opening quote up to its closing quote, the limit or the first newline;
// body may run on past the closing quote, so a prefix of a huge string is
// read without finding its end first.
func UnquoteBody(body []byte, limit int, firstLine bool) string {
	n := len(body)
	if limit > 0 && n > limit {
		n = limit
	}
	j := 0
	for j < n && body[j] != '\\' && body[j] != '"' {
		j++
	}
	switch {
	case j < len(body) && body[j] == '"':
		return Alias(body[:j])
	case j == n && n < len(body) && body[j] != '\\':
		return trimRune(body[:j]) // cut by the limit
	case j == len(body):
		return Alias(body)
	}
	out := make([]byte, j, max(2*j, 64))
	copy(out, body[:j])
	for i := j; i < len(body); {
		if limit > 0 && len(out) >= limit {
			return trimRune(out)
		}
		c := body[i]
		if c == '"' {
			break
		}
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		esc := body[i+1]
		i += 2
		switch esc {
		case 'n':
			if firstLine {
				return string(out)
			}
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r := rune(hex4(body[i:]))
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					r2 = rune(hex4(body[i+2:]))
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default: // '"', '\\', '/'
			out = append(out, esc)
		}
	}
	return string(out)
}

// Alias returns b as a string without copying it. Decode owns the raw
// bytes of an event and never modifies them, so the ids, names and lines it
// reads can share that memory instead of each holding a copy: a resident
// log of a million events is then little more than its raw JSON. Only
// spans of an event's Raw may be aliased.
func Alias(b []byte) string {
	return arena.String(b)
}

// trimRune drops an incomplete rune at the end of a cut-short buffer.
func trimRune(b []byte) string {
	for n := 1; n <= 3 && n <= len(b); n++ {
		if utf8.RuneStart(b[len(b)-n]) {
			if !utf8.FullRune(b[len(b)-n:]) {
				b = b[:len(b)-n]
			}
			break
		}
	}
	return string(b)
}

// hex4 reads the four validated hex digits of a \u escape.
func hex4(b []byte) int {
	n := 0
	for _, c := range b[:4] {
		n <<= 4
		switch {
		case c >= '0' && c <= '9':
			n |= int(c - '0')
		case c >= 'a' && c <= 'f':
			n |= int(c-'a') + 10
		default:
			n |= int(c-'A') + 10
		}
	}
	return n
}

// ParseInt parses a number span as an integer (accepting an integral
// float such as 0.0 or 1e3).
func ParseInt(v []byte) (int64, bool) {
	// Token counts, exit codes, indices: a few plain digits, read here
	// without strconv's generality (every stats update holds dozens).
	if len(v) > 0 && len(v) <= 18 {
		neg := v[0] == '-'
		digits := v
		if neg {
			digits = v[1:]
		}
		n, plain := int64(0), len(digits) > 0
		for _, c := range digits {
			if c < '0' || c > '9' {
				plain = false
				break
			}
			n = n*10 + int64(c-'0')
		}
		if plain {
			if neg {
				n = -n
			}
			return n, true
		}
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}
