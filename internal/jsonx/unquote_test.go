package jsonx

import (
	"strconv"
	"testing"
)

func TestUnquote(t *testing.T) {
	tests := []struct {
		lit       string
		limit     int
		firstLine bool
		want      string
	}{
		{`"plain"`, 0, false, "plain"},
		{`"a\"b\\c\/d\te\rf\bg\fh"`, 0, false, "a\"b\\c/d\te\rf\bg\fh"},
		{`"line one\nline two"`, 0, true, "line one"},
		{`"line one\nline two"`, 0, false, "line one\nline two"},
		{`"smile \ud83d\ude00!"`, 0, false, "smile 😀!"},
		{`"lone \ud800 surrogate"`, 0, false, "lone \uFFFD surrogate"},
		{`"\u00e9t\u00e9"`, 0, false, "été"},
		{`"héllo wörld"`, 2, false, "h"},      // cut inside é: the partial rune is dropped
		{`"h\u00e9llo"`, 2, false, "hé"},      // an escape is decoded whole
		{`"abcdef"`, 3, false, "abc"},         // cut by the limit
		{`"abc"`, 3, false, "abc"},            // exactly the limit
		{`"ab\"cdef"`, 3, false, "ab\""},      // the limit right after an escape
		{`"x" trailing bytes`, 0, false, "x"}, // stops at the closing quote
		{`"a\u0000b"`, 0, false, "a\x00b"},    // NUL survives unquoting; Sanitize marks it
	}
	for _, tt := range tests {
		if got := Unquote([]byte(tt.lit), tt.limit, tt.firstLine); got != tt.want {
			t.Errorf("unquote(%s, %d, %v) = %q, want %q", tt.lit, tt.limit, tt.firstLine, got, tt.want)
		}
	}
}

func TestParseIntSpan(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "-1": -1, "127": 127, "1e3": 1000, "2.0": 2} {
		if got, ok := ParseInt([]byte(in)); !ok || got != want {
			t.Errorf("parseIntSpan(%s) = %d, %v", in, got, ok)
		}
	}
	for _, in := range []string{"1.5", "1e400", "99999999999999999999"} {
		if _, ok := ParseInt([]byte(in)); ok {
			t.Errorf("parseIntSpan(%s) accepted", in)
		}
	}
	// The plain-digits path agrees with strconv at every length around
	// its limit, signed or not.
	for _, in := range []string{"-0", "5", "-5", "123456789012345678", "-123456789012345678", "999999999999999999",
		"1234567890123456789", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-", ""} {
		got, ok := ParseInt([]byte(in))
		want, err := strconv.ParseInt(in, 10, 64)
		if ok != (err == nil) || ok && got != want {
			t.Errorf("parseIntSpan(%q) = %d, %v; strconv says %d, %v", in, got, ok, want, err)
		}
	}
}
