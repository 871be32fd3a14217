package gen

import (
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
