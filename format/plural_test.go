package format

import "testing"

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 errors", 1: "1 error", 2: "2 errors", 12345: "12345 errors"} {
		if got := Plural(n, "error"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}
