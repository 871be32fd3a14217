package fleet

import "ohwatch/model"

// Outcome is how a conversation's run has ended, for a watch that waits on
// a fleet. The values past OutcomeRunning are in order of how bad they
// are: an error is worse than a stuck, a stuck worse than a run a guard
// stopped, that worse than an end without a terminal state, which is worse
// than a finished.
type Outcome int

// The outcomes.
const (
	// OutcomeRunning: not ended; more can come.
	OutcomeRunning Outcome = iota
	OutcomeFinished
	// OutcomeAtRest: the server says the conversation is idle or paused:
	// no run drives it now, and nothing comes until someone sends a
	// message or resumes it (a fork, a rejected action, a navigate). No
	// terminal state was reached. A row alone cannot tell an idle
	// conversation about to run (just created, listed before its first
	// run) from one at rest for good: a watch of the whole fleet decides
	// that over time (headless, fleetrest.go: paused and idle after a run
	// at once; idle before any run after a grace of 30 s).
	OutcomeAtRest
	// OutcomeNone: nothing more can come and no terminal state was
	// reached (the source ended or gave up, a paused sandbox).
	OutcomeNone
	// OutcomeGuard: a pause or interrupt guard stopped the run (the watch
	// that holds the guards sets it; a row alone cannot tell).
	OutcomeGuard
	OutcomeStuck
	OutcomeError
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case OutcomeFinished:
		return "finished"
	case OutcomeAtRest:
		return "at rest"
	case OutcomeNone:
		return "none"
	case OutcomeGuard:
		return "stopped by a guard"
	case OutcomeStuck:
		return "stuck"
	case OutcomeError:
		return "error"
	}
	return "running"
}

// Terminal reports whether the outcome is a terminal state of the run.
func (o Outcome) Terminal() bool {
	return o == OutcomeFinished || o == OutcomeStuck || o == OutcomeError
}

// Outcome is how the row's run has ended: an error or a stuck as soon as
// it is stated, a finished once it is final (confirmed, or the last status
// of a source that ended), at rest when the server says idle or paused,
// none when the source ended or gave up without one (or the sandbox
// sleeps with the run not at an end).
func (r Row) Outcome() Outcome {
	switch r.Verdict.Status {
	case model.StatusError:
		return OutcomeError
	case model.StatusStuck:
		return OutcomeStuck
	case model.StatusFinished:
		if r.Verdict.Final() {
			return OutcomeFinished
		}
	}
	switch r.Verdict.Status {
	case model.StatusIdle, model.StatusPaused:
		if r.Verdict.Confirmed {
			return OutcomeAtRest
		}
	}
	switch {
	case r.Paused:
		return OutcomeNone
	case !r.ConnKnown:
		return OutcomeRunning
	case r.Conn.Phase == model.PhaseDone, r.Conn.Phase == model.PhaseLost && r.Conn.Final:
		return OutcomeNone
	}
	return OutcomeRunning
}
