package agentserver

import (
	"context"
	"errors"

	"ohwatch/model"
)

// ErrNotWaiting means an answer to a confirmation was not sent: the
// conversation no longer waits on exactly the actions the user was asked
// about. errors.As gives the *NotWaitingError that says why.
var ErrNotWaiting = errors.New("not waiting on these actions")

// NotWaitingError says why an answer was withheld.
type NotWaitingError struct {
	// Reason is a short sentence for the user ("the conversation is
	// running, no longer waiting for confirmation").
	Reason string
}

// Error implements error.
func (e *NotWaitingError) Error() string { return "not sent: " + e.Reason }

// Is makes errors.Is(err, ErrNotWaiting) hold.
func (e *NotWaitingError) Is(target error) bool { return target == ErrNotWaiting }

// confirmCheckPages bounds how far back (newest first, 100 events a page)
// the pending actions are looked for: they are the last step's actions, so
// a few pages are plenty, and a server that pages for ever cannot hold the
// answer up.
const confirmCheckPages = 5

// errFoundAll ends the walk of RespondToActions' check early.
var errFoundAll = errors.New("every action found")

// RespondToActions accepts or rejects the actions waiting for confirmation,
// but only if the conversation still waits on exactly actionIDs: the
// respond_to_confirmation route names no action, so an answer sent after
// the question went stale would land on whatever waits next. Just before
// posting it asks the server for the status and for the actions that have
// no result yet; on any difference it sends nothing and returns a
// *NotWaitingError. (A change in the instant between the check and the
// post cannot be excluded: the protocol has no conditional answer.)
func (c *Client) RespondToActions(ctx context.Context, id string, actionIDs []string, accept bool, reason string) error {
	if err := c.checkWaitingOn(ctx, id, actionIDs); err != nil {
		return err
	}
	return c.RespondToConfirmation(ctx, id, accept, reason)
}

// checkWaitingOn returns nil when the server reports waiting_for_confirmation
// and the actions without a result, newest first down to the oldest of
// actionIDs, are exactly actionIDs.
func (c *Client) checkWaitingOn(ctx context.Context, id string, actionIDs []string) error {
	if len(actionIDs) == 0 {
		return &NotWaitingError{Reason: "no pending action was named"}
	}
	info, err := c.Conversation(ctx, id)
	if err != nil {
		return err
	}
	if info.ExecutionStatus != model.StatusWaitingForConfirmation {
		return &NotWaitingError{Reason: "the conversation is " + model.StatusWords(info.ExecutionStatus) + ", no longer waiting for confirmation"}
	}
	want := make(map[string]bool, len(actionIDs))
	for _, a := range actionIDs {
		want[a] = true
	}
	found := 0
	var settled, settledCalls = map[string]bool{}, map[string]bool{}
	var problem *NotWaitingError
	pages := 0
	err = c.eachEventPage(ctx, id, eventQuery{NewestFirst: true}, func(evs []model.Event) error {
		pages++
		for _, ev := range evs {
			switch b := ev.Body.(type) {
			case *model.Observation:
				settled[b.ActionID] = true
			case *model.UserReject:
				settled[b.ActionID] = true
			case *model.AgentError:
				settledCalls[b.ToolCallID] = true
			case *model.Action:
				if b.ActionKind == "" {
					continue // an unparsed call: nothing waits for it
				}
				done := settled[ev.ID] || (b.ToolCallID != "" && settledCalls[b.ToolCallID])
				switch {
				case want[ev.ID] && done:
					problem = &NotWaitingError{Reason: "the action asked about was already answered"}
				case want[ev.ID]:
					found++
				case !done:
					problem = &NotWaitingError{Reason: "the conversation now waits on another action"}
				}
				if problem != nil {
					return problem
				}
				if found == len(want) {
					return errFoundAll
				}
			}
		}
		if pages >= confirmCheckPages {
			return &NotWaitingError{Reason: "the actions asked about are not among the server's recent events"}
		}
		return nil
	})
	switch {
	case errors.Is(err, errFoundAll):
		return nil
	case problem != nil:
		return problem
	case err != nil:
		var nw *NotWaitingError
		if errors.As(err, &nw) {
			return nw
		}
		return err
	}
	return &NotWaitingError{Reason: "the actions asked about are not on the server"}
}
