package redact

import "ohwatch/internal/arena"

// JSON removes the secrets from an event's raw JSON (or any JSON), in every form
// Text knows, before it is decoded: an agent that runs `env` in its
// sandbox echoes the session key into an observation, and everything
// derived from the raw bytes (the summaries, the inspector, a search, a
// recording, the headless lines) would carry it. raw is returned as it is
// when it holds no secret; otherwise a redacted copy, which the caller
// decodes as usual. Redacted is plain text, so a secret inside a JSON
// string leaves the string valid; one whose echo spans the JSON around it
// leaves bytes that no longer decode, and the event is then dropped as
// malformed, never shown with the secret.
func JSON(raw []byte, secrets ...string) []byte {
	any := false
	for _, s := range secrets {
		any = any || s != ""
	}
	if !any {
		return raw
	}
	return redactJSON(raw, func(text string) string { return Text(text, secrets...) })
}

// RedactJSON is JSON with every secret the set has learnt so far.
// A nil set redacts nothing.
func (s *Secrets) RedactJSON(raw []byte) []byte {
	if !s.Any() {
		return raw
	}
	return redactJSON(raw, s.Redact)
}

// redactJSON is JSON through redact, which removes the secrets from
// a text, returning the text itself when it holds none.
func redactJSON(raw []byte, redact func(string) string) []byte {
	if len(raw) == 0 {
		return raw
	}
	// Read in place: only a changed event is copied.
	text := arena.String(raw)
	if out := redact(text); !arena.SameString(out, text) || len(out) != len(text) {
		return []byte(out)
	}
	return raw
}
