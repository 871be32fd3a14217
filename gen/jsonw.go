package gen

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// The helpers below append JSON straight into a byte slice. Events are
// written by hand rather than through encoding/json because upstream's byte
// layout matters (field order with `kind` last, pydantic's string escapes,
// Python float reprs) and because a million events must come out in seconds.

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way pydantic (serde_json)
// writes it: UTF-8 kept as is, `"` and `\` escaped, the usual short escapes
// for \b \f \n \r \t and \u00XX for the other control characters.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendASCIIString appends s as Python's json.dumps writes it by default
// (ensure_ascii=True): every non-ASCII rune becomes \uXXXX, with surrogate
// pairs beyond the BMP. Tool-call arguments are produced by json.dumps, so
// they look like this upstream.
func appendASCIIString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				dst = append(dst, '\\', '"')
			case c == '\\':
				dst = append(dst, '\\', '\\')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c < 0x20 || c == 0x7f:
				dst = appendU4(dst, rune(c))
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			dst = appendU4(dst, 0xd800+(r>>10))
			dst = appendU4(dst, 0xdc00+(r&0x3ff))
			continue
		}
		dst = appendU4(dst, r)
	}
	return append(dst, '"')
}

func appendU4(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u',
		hexDigits[(r>>12)&0xf], hexDigits[(r>>8)&0xf], hexDigits[(r>>4)&0xf], hexDigits[r&0xf])
}

// appendKey appends `"key":`, preceded by a comma unless it opens an object.
func appendKey(dst []byte, key string) []byte {
	if n := len(dst); n > 0 && dst[n-1] != '{' && dst[n-1] != '[' {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

func appendStringField(dst []byte, key, value string) []byte {
	return appendString(appendKey(dst, key), value)
}

func appendIntField(dst []byte, key string, value int64) []byte {
	return strconv.AppendInt(appendKey(dst, key), value, 10)
}

func appendBoolField(dst []byte, key string, value bool) []byte {
	return strconv.AppendBool(appendKey(dst, key), value)
}

func appendFloatField(dst []byte, key string, value float64) []byte {
	return appendPyFloat(appendKey(dst, key), value)
}

// appendPyFloat appends f as Python's repr would: the shortest digits that
// round-trip, fixed notation for exponents in [-4, 16) and always a
// fractional part ("3.0", not "3").
func appendPyFloat(dst []byte, f float64) []byte {
	exp := 0
	if f != 0 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		for i := len(s) - 1; i >= 0; i-- {
			if s[i] == 'e' {
				exp, _ = strconv.Atoi(s[i+1:])
				break
			}
		}
	}
	if exp < -4 || exp >= 16 {
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
	for _, c := range dst[start:] {
		if c == '.' {
			return dst
		}
	}
	return append(dst, '.', '0')
}

// appendTimestamp appends t as Python's naive datetime.isoformat(): no zone,
// microseconds when they are not zero.
func appendTimestamp(dst []byte, t time.Time) []byte {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	dst = appendPadded(dst, y, 4)
	dst = append(dst, '-')
	dst = appendPadded(dst, int(mo), 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, d, 2)
	dst = append(dst, 'T')
	dst = appendPadded(dst, h, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, mi, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, s, 2)
	if us := t.Nanosecond() / 1000; us != 0 {
		dst = append(dst, '.')
		dst = appendPadded(dst, us, 6)
	}
	return dst
}

func appendPadded(dst []byte, v, width int) []byte {
	var buf [8]byte
	i := len(buf)
	for v > 0 || i == len(buf) {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	for len(buf)-i < width {
		i--
		buf[i] = '0'
	}
	return append(dst, buf[i:]...)
}

// unixFloat is a time as Python's time.time() float (seconds, microsecond
// precision), the form Metrics cost timestamps use.
func unixFloat(t time.Time) float64 {
	return float64(t.UnixMicro()) / 1e6
}
