package model

import "time"

// Batch is what a source hands its consumer: the events that arrived since
// the last batch (about one batch per frame, never one message per event),
// and, when it changed, the connection state.
type Batch struct {
	Events []Event
	// Conn is non-nil when the source's connection state changed.
	Conn *ConnState
	// Warnings are non-fatal problems the source met (an unreadable file,
	// a frame that was not JSON); the events already read are kept.
	Warnings []string
	// Progress is set by sources that load a known amount of work (a
	// recording read from disk), so a screen can show how far it has got
	// while the first events are already on it.
	Progress *Progress
	// Runtime is set when what the server says of the conversation's
	// runtime or archive changed (runtime.go).
	Runtime *Runtime
}

// Progress is how far a loading source has got: Done of Total units (event
// files for a directory, bytes for JSONL); Total is 0 when unknown.
type Progress struct {
	Done, Total int64
	Loaded      int // events handed out so far
}

// Phase is where a source's connection stands.
type Phase int

// The phases a live source moves through. A file source is Live while it
// reads and Done when it has nothing more to give.
const (
	PhaseConnecting Phase = iota
	PhaseLive
	PhaseReconnecting
	PhaseLost
	PhaseDone
	// PhaseListed: a fleet shows the conversation from its source's
	// listing, asked at an interval, with no live stream of its own (it
	// is finished, idle or waits its turn); it is streamed again when the
	// listing says it changed.
	PhaseListed
)

// String implements fmt.Stringer.
func (p Phase) String() string {
	switch p {
	case PhaseConnecting:
		return "connecting"
	case PhaseLive:
		return "live"
	case PhaseReconnecting:
		return "reconnecting"
	case PhaseLost:
		return "lost"
	case PhaseDone:
		return "done"
	case PhaseListed:
		return "listed"
	}
	return "unknown"
}

// ConnState is a source's observable connection state, for the header
// ("reconnecting 3 in 4s", "lost: authentication rejected").
type ConnState struct {
	Phase   Phase
	Attempt int           // reconnect attempt number, from 1
	RetryIn time.Duration // wait before the next attempt
	Reason  string        // sanitised; never contains a secret
	// Final is true when the source will not try again (close 4001/4004,
	// HTTP 401/403/404).
	Final bool
	// Code classifies a final failure for exit codes: "auth", "not_found",
	// "connect", or "".
	Code string
}
