package session

import (
	"io"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/config"
)

// Env is what a session may touch of the process: its streams, its
// environment variables and what was read of them once (injected, so tests
// run whole commands in-process).
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Environ lists the environment (nil: none given), for what needs it
	// whole: the terminal's colour profile is detected from it here, so
	// that nothing under tui reads the environment.
	Environ func() []string
	// IsTerminal reports whether stdout is a terminal (the TUI needs one;
	// headless is automatic otherwise).
	IsTerminal bool
	// NoColor is NO_COLOR, read once: set and not empty turns colours off
	// (no-color.org).
	NoColor bool
	// Version is ohwatch's version, as traces name their service's.
	Version string
	// Config is the configuration file's settings (nil: the defaults):
	// the TUI takes its key bindings and the fleet table its columns and
	// order from it.
	Config *config.Config
	// RecordWrite writes the files of --record (nil: the filesystem);
	// tests make the disk fill up through it.
	RecordWrite func(dir, name string, data []byte) error
}

// colourProfile is the colour profile of the terminal on Stdout as its
// environment describes it; Unknown without an environment (tests), and
// then the program reports the terminal's own once it runs. Stdout may be
// wrapped (redacting secrets): the terminal is the writer under the
// wrappers, so it is the one asked whether it is a terminal.
func (env *Env) colourProfile() colorprofile.Profile {
	if env.Environ == nil {
		return colorprofile.Unknown
	}
	out := env.Stdout
	for {
		w, ok := out.(interface{ underlying() io.Writer })
		if !ok {
			break
		}
		out = w.underlying()
	}
	return colorprofile.Detect(out, env.Environ())
}
