package session

import (
	"context"
	"io"
	"testing"

	"github.com/charmbracelet/colorprofile"

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

// TestColourProfileComesFromEnv: the terminal's colour profile is detected
// from Env.Environ, the environment the caller gave, never the process's:
// the TUI packages read no environment and take it whole from here.
func TestColourProfileComesFromEnv(t *testing.T) {
	t.Setenv("TERM", "dumb")
	t.Setenv("NO_COLOR", "1")
	environ := func() []string { return []string{"TERM=xterm-256color", "CLICOLOR_FORCE=1"} }
	env := &Env{Stdout: io.Discard, Getenv: func(string) string { return "" }, Environ: environ}
	if got := env.colourProfile(); got != colorprofile.ANSI256 {
		t.Errorf("profile %v from TERM=xterm-256color; want ANSI256", got)
	}
	if got := NewFleet().tableOptions(context.Background(), env, FleetOptions{}, nil).Profile; got != colorprofile.ANSI256 {
		t.Errorf("fleet table: profile %v; want ANSI256", got)
	}
	if got := (&Env{Stdout: io.Discard}).colourProfile(); got != colorprofile.Unknown {
		t.Errorf("profile %v without an environment; want Unknown", got)
	}
}
