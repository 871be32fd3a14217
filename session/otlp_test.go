package session

import "testing"

// TestDropWarningsThinOut: a backend that stays down warns at 1, 10, 100…
// spans dropped, not on every check.
func TestDropWarningsThinOut(t *testing.T) {
	var warned int64
	var at []int64
	for dropped := int64(0); dropped <= 2500; dropped += 7 {
		var w string
		if w, warned = dropWarning(dropped, warned); w != "" {
			at = append(at, dropped)
		}
	}
	if len(at) != 4 || at[0] != 7 || at[1] < 10 || at[2] < 100 || at[3] < 1000 {
		t.Fatalf("warned at %v", at)
	}
}
