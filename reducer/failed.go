package reducer

import "ohwatch/model"

// Failed reports whether an event is an error: the one definition that
// the header's count, ] and [, the |failed narrowing, the list's ✗, state
// and the exports all use, so that no surface counts 5 errors where
// another shows 20. An error is an error kind (an agent, conversation or
// server error), a tool result marked is_error, a command that exited
// non-zero, a hook that failed or blocked, an ACP call that failed.
func Failed(ev *model.Event) bool {
	switch b := ev.Body.(type) {
	case *model.Observation:
		return b.IsError || exitFailed(b)
	case *model.Hook:
		return !b.Success || b.Blocked
	case *model.ACPToolCall:
		return b.IsError
	case *model.AgentError, *model.ConversationError, *model.ServerError:
		return true
	}
	return false
}

// exitFailed reports whether a command's result says it exited non-zero
// (upstream leaves is_error false for it: the tool ran, the command
// failed). A soft timeout (-1: still running) is not a failure.
func exitFailed(o *model.Observation) bool { return o.ExitCode != nil && *o.ExitCode > 0 }
