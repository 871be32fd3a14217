package gen

import (
	"encoding/json"
	"testing"
)

func TestAppendPyFloat(t *testing.T) {
	tenth, fifth := 0.1, 0.2 // variables: constant arithmetic would be exact
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0.0"},
		{3, "3.0"},
		{0.1, "0.1"},
		{0.0123, "0.0123"},
		{1e-05, "1e-05"},
		{1.5e-05, "1.5e-05"},
		{0.0001, "0.0001"},
		{1769486182.71897, "1769486182.71897"},
		{1e16, "1e+16"},
		{123456789012345.0, "123456789012345.0"},
		{tenth + fifth, "0.30000000000000004"},
	} {
		if got := string(appendPyFloat(nil, tc.in)); got != tc.want {
			t.Errorf("appendPyFloat(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestAppendASCIIString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{"a \"q\" \\ b", `"a \"q\" \\ b"`},
		{"tab\tnl\n", `"tab\tnl\n"`},
		{"\x1b[0m", `"\u001b[0m"`},
		{"✅ done", `"\u2705 done"`},
		{"👋", `"\ud83d\udc4b"`},
	} {
		got := string(appendASCIIString(nil, tc.in))
		if got != tc.want {
			t.Errorf("appendASCIIString(%q) = %s, want %s", tc.in, got, tc.want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != tc.in {
			t.Errorf("%s does not decode back to %q", got, tc.in)
		}
	}
}

func TestAppendStringRoundTrips(t *testing.T) {
	for _, in := range []string{"", "x", "line\nline", "\x00\x01\x7f", "é ⏳ 👋", "\u2028", `"\`} {
		var back string
		if err := json.Unmarshal(appendString(nil, in), &back); err != nil || back != in {
			t.Errorf("appendString(%q) does not round-trip: %v", in, err)
		}
	}
}
