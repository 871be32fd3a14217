package cli

import (
	"testing"

	"ohwatch/session"
)

// TestNoColorIsReadOnce: NO_COLOR set and not empty turns colours off for
// every command, read from the injected environment.
func TestNoColorIsReadOnce(t *testing.T) {
	for value, want := range map[string]bool{"": false, "1": true, "0": true} {
		env := withProcessSettings(session.Env{Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return value
			}
			return ""
		}})
		if env.NoColor != want {
			t.Errorf("NO_COLOR=%q: NoColor %v, want %v", value, env.NoColor, want)
		}
	}
}
