package session

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"ohwatch/internal/redact"
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

// TestColourProfileSeesTheTerminalUnderRedaction: once secrets are known,
// stdout is a writer that redacts them into the terminal; the profile is
// still the terminal's (a redacting writer is no terminal, and asked
// instead it drew every screen without colour).
func TestColourProfileSeesTheTerminalUnderRedaction(t *testing.T) {
	tty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer tty.Close()
	if !term.IsTerminal(tty.Fd()) {
		t.Skip("the pseudo-terminal is not taken for a terminal here")
	}
	environ := func() []string { return []string{"TERM=xterm-256color"} }
	env := &Env{Stdout: tty, Stderr: io.Discard, Getenv: func(string) string { return "" }, Environ: environ}
	if got := env.colourProfile(); got != colorprofile.ANSI256 {
		t.Fatalf("profile %v on the terminal itself; want ANSI256", got)
	}
	secrets := &redact.Secrets{}
	secrets.Add("s3cr3t-key-value")
	secret, done := env.WithSecrets(secrets)
	defer done()
	if got := secret.colourProfile(); got != colorprofile.ANSI256 {
		t.Errorf("profile %v through the redacting writer; want the terminal's ANSI256", got)
	}
}
