// Package session takes one conversation on its way to a screen or to
// headless lines: it opens the source (a recording, a directory being
// written, an agent-server, a Cloud sandbox, a conversation of a fleet),
// tees it into --record and --otlp, gives the TUI its links, branching and
// export, and returns the exit code by the README's table. It takes plain
// values (Options, FleetOptions, Env), never the command line's flags:
// the cli package parses those.
package session
