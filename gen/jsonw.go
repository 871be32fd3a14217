package gen

import (
	"strconv"
	"time"

	"ohwatch/internal/jsonx"
)

// The helpers below append JSON straight into a byte slice. Events are
// written by hand rather than through encoding/json because upstream's byte
// layout matters (field order with `kind` last, pydantic's string escapes
// and json.dumps's ASCII ones, both jsonx.AppendString, Python float reprs)
// and because a million events must come out in seconds.

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
	return jsonx.AppendString(appendKey(dst, key), value, 0)
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
