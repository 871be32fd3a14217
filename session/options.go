package session

import (
	"time"

	"ohwatch/guard"
	"ohwatch/internal/redact"
	"ohwatch/theme"
)

// Options say how one conversation is shown: the parsed command line of
// demo, watch, cloud and replay, as plain values.
type Options struct {
	// Headless prints lines instead of the TUI (--headless, --json, or
	// stdout not a terminal).
	Headless bool
	// JSON prints JSONL lines (with Headless).
	JSON bool
	// Record is the --record directory, "" for none.
	Record string
	// WatchTimeout gives up (exit 5) when no terminal state is reached
	// in time; 0 never does.
	WatchTimeout time.Duration
	// ConfirmGrace is how long a provisional finished waits for a
	// full_state before REST is asked.
	ConfirmGrace time.Duration
	// Notify rings the bell and sends desktop notifications in the TUI.
	Notify bool
	// Theme is the TUI's palette, resolved from --theme and OHWATCH_THEME.
	Theme theme.Mode
	// OTLP sends the conversation's spans to a tracing backend.
	OTLP OTLP
	// Secrets are kept off every surface (nil: none).
	Secrets *redact.Secrets
	// Guards are the --guard rules: each conversation judges them on its
	// own Set, and a pause or interrupt guard stops a live run.
	Guards []guard.Rule
	// Wait is --wait: a live watch's first connection keeps trying this
	// long (a viewer started before its server), instead of giving up
	// after a few attempts; 0 keeps the few attempts.
	Wait time.Duration
}

// OTLP is --otlp[=ENDPOINT] and --otlp-content.
type OTLP struct {
	On bool
	// Endpoint is the backend's URL; "" takes OTEL_EXPORTER_OTLP_ENDPOINT,
	// else localhost.
	Endpoint string
	// Content copies tool arguments and outputs, sanitised and capped,
	// into the spans.
	Content bool
}
