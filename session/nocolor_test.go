package session

import (
	"context"
	"testing"

	"ohwatch/reducer"
)

// TestNoColorComesFromEnv: the TUI of a conversation and the fleet table
// take colours off by Env.NoColor alone, never by reading the process
// environment again.
func TestNoColorComesFromEnv(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	getenv := func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}
	c := conversation{log: reducer.NewLog(nil, 0)}
	for _, noColor := range []bool{false, true} {
		env := &Env{Getenv: getenv, NoColor: noColor}
		if got := c.tuiOptions(env, false, 0).NoColor; got != noColor {
			t.Errorf("conversation: NoColor %v with Env.NoColor %v", got, noColor)
		}
		if got := NewFleet().tableOptions(context.Background(), env, FleetOptions{}, nil).NoColor; got != noColor {
			t.Errorf("fleet table: NoColor %v with Env.NoColor %v", got, noColor)
		}
	}
}
