package model

import "time"

// Runtime is what a server says, apart from the conversation's events,
// about where the conversation runs: its runtime's status (upstream
// openhands-agent-server ConversationRuntimeInfo, GET /{id}/runtime, PR
// #4966, SDK 1.48: available, starting, missing, ownership_lost, error),
// whether it can be resumed, its latest failure, and when the conversation
// was archived (archived_at; zero when it is not). A missing runtime is
// neither an error of the conversation nor its end: it is stated apart
// from the status.
type Runtime struct {
	Status    string // "" when the server does not say
	CanResume bool
	Error     string // "code: message" of the latest failure, sanitised
	Archived  time.Time
}

// Words is the runtime as the header, the fleet and headless say it:
// "archived · runtime missing (can resume)", "runtime error: …"; "" when
// there is nothing to say.
func (r Runtime) Words() string {
	out := ""
	if !r.Archived.IsZero() {
		out = "archived"
	}
	if r.Status == "" {
		return out
	}
	s := "runtime " + r.Status
	switch r.Status {
	case "ownership_lost":
		s = "runtime ownership lost"
	case "available", "starting":
	default:
		if r.CanResume {
			s += " (can resume)"
		}
	}
	if r.Error != "" {
		s += ": " + r.Error
	}
	if out != "" {
		return out + " · " + s
	}
	return s
}

// Troubled reports whether the runtime is not there to run the
// conversation (missing, lost, failed), which a screen marks.
func (r Runtime) Troubled() bool {
	switch r.Status {
	case "missing", "ownership_lost", "error":
		return true
	}
	return false
}
