package session

import (
	"io"

	"ohwatch/config"
)

// Env is what a session may touch of the process: its streams, its
// environment variables and what was read of them once (injected, so tests
// run whole commands in-process).
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
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
