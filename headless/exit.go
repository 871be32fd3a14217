package headless

import "ohwatch/model"

// Exit codes, as documented in ux.md and the README.
const (
	ExitFinished    = 0   // confirmed finished
	ExitError       = 1   // the conversation ended in error
	ExitUsage       = 2   // bad flags or arguments
	ExitStuck       = 3   // the conversation is stuck
	ExitUnreachable = 4   // could not connect, auth rejected, not found
	ExitNoTerminal  = 5   // watch timeout, or the recording ended first
	ExitInterrupted = 130 // Ctrl-C
)

// Exit codes of the way a session ended rather than of the conversation.
const (
	// ExitRecordIncomplete: the watch ended as the codes above say, but
	// --record could not write every event (disk full, permission).
	ExitRecordIncomplete = 6
	// ExitTUIFailed: the terminal UI could not run, so the conversation
	// was not watched (1 would claim it ended in error).
	ExitTUIFailed = 7
	// ExitGuard: a pause or interrupt guard stopped the run and the server
	// confirmed the pause (or, in a dry run over a recording, the guard
	// would have stopped it).
	ExitGuard = 8
	// ExitSignalBase plus a signal's number is the exit code of a session
	// ended by that signal: 130 SIGINT (ExitInterrupted), 143 SIGTERM,
	// 129 SIGHUP, as shells report a process killed by it.
	ExitSignalBase = 128
)

// exitForStatus maps a terminal execution status to its exit code; ok is
// false for statuses that are not terminal.
func exitForStatus(status string) (code int, ok bool) {
	switch status {
	case model.StatusFinished:
		return ExitFinished, true
	case model.StatusError:
		return ExitError, true
	case model.StatusStuck:
		return ExitStuck, true
	}
	return ExitNoTerminal, false
}
