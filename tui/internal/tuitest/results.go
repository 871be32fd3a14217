package tuitest

import (
	"fmt"
	"testing"

	"ohwatch/compare"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// resultCaseLog builds a log from hand-written events: the shapes in which
// the result of an action is easy to get wrong.
func resultCaseLog(tb testing.TB, raws ...string) *reducer.Log {
	tb.Helper()
	return FixtureLog(tb, raws...)
}

// RawID is the uuid of hand-written event n.
func RawID(n int) string { return fmt.Sprintf("a0000000-0000-4000-8000-%012d", n) }

// RawAction is terminal action n running cmd under tool call id call.
func RawAction(n int, call, resp, cmd string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"agent","thought":[],"action":{"command":%q,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":%q,"tool_call":{"id":%q,"name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":%q,"security_risk":"LOW","summary":"run","kind":"ActionEvent"}`,
		RawID(n), n%60, cmd, call, call, resp)
}

// RawEdit is file-editor action n under tool call id call.
func RawEdit(n int, call string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"agent","thought":[],"action":{"command":"view","path":"/w/a.txt","kind":"FileEditorAction"},"tool_name":"file_editor","tool_call_id":%q,"tool_call":{"id":%q,"name":"file_editor","arguments":"{}","origin":"completion"},"llm_response_id":"r-edit","security_risk":"LOW","summary":"view","kind":"ActionEvent"}`,
		RawID(n), n%60, call, call)
}

// RawObs is observation n of action (an event number) under call, with its
// output and exit code.
func RawObs(n, action int, call, out string, exit int) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"environment","tool_name":"terminal","tool_call_id":%q,"action_id":%q,"observation":{"kind":"TerminalObservation","content":[{"type":"text","text":%q}],"is_error":false,"exit_code":%d,"timeout":false,"metadata":{"exit_code":%d}},"kind":"ObservationEvent"}`,
		RawID(n), n%60, call, RawID(action), out, exit, exit)
}

// RawEditObs is the file editor's observation n of action.
func RawEditObs(n, action int, call string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"environment","tool_name":"file_editor","tool_call_id":%q,"action_id":%q,"observation":{"kind":"FileEditorObservation","content":[{"type":"text","text":"hello"}],"command":"view","path":"/w/a.txt","is_error":false},"kind":"ObservationEvent"}`,
		RawID(n), n%60, call, RawID(action))
}

// RawError is agent error n for call.
func RawError(n int, call, text string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"agent","tool_name":"terminal","tool_call_id":%q,"error":%q,"kind":"AgentErrorEvent"}`,
		RawID(n), n%60, call, text)
}

// RawReject is the user's rejection n of action.
func RawReject(n, action int, call string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"user","tool_name":"terminal","tool_call_id":%q,"action_id":%q,"rejection_reason":"not now","rejection_source":"user","kind":"UserRejectObservation"}`,
		RawID(n), n%60, call, RawID(action))
}

// ResultCases are logs in which the inspector, the compare detail and the
// compare screen's outcome each found the result of an action their own
// way, and named different ones.
func ResultCases(tb testing.TB) map[string]*reducer.Log {
	tb.Helper()
	far := []string{RawAction(1, "toolu_far", "r1", "sleep 9")}
	for k := 2; k < 2+300; k++ {
		far = append(far, StateUpdate(RawID(k), "2026-01-27T03:57:00.000000", "stats", map[string]any{}))
	}
	far = append(far, RawObs(302, 1, "toolu_far", "slept", 0))
	return map[string]*reducer.Log{
		// One response's parallel calls with one tool call id (some
		// providers number calls per response): each result names its
		// action by action_id.
		"shared call id in one response": resultCaseLog(tb,
			RawAction(1, "call_0", "r1", "echo one"), RawAction(2, "call_0", "r1", "false"),
			RawObs(3, 1, "call_0", "one", 0), RawObs(4, 2, "call_0", "", 1)),
		// The first call's id comes back in a later response while it
		// has no result: a later result by that id is not its.
		"reused call id, first unanswered": resultCaseLog(tb,
			RawAction(1, "call_0", "r1", "serve"), RawAction(2, "call_0", "r2", "echo two"),
			RawObs(3, 2, "call_0", "two", 0)),
		// A long wait: the result comes 300 events after its action.
		"result far from its action": resultCaseLog(tb, far...),
		// A restart's agent error takes the place of a terminal result;
		// a rejection answers too; a file editor's observation too.
		"error, rejection, editor": resultCaseLog(tb,
			RawAction(1, "toolu_a", "r1", "make"), RawError(2, "toolu_a", "A restart occurred while this tool was in progress"),
			RawAction(3, "toolu_b", "r2", "rm -rf /"), RawReject(4, 3, "toolu_b"),
			RawEdit(5, "toolu_c"), RawEditObs(6, 5, "toolu_c")),
	}
}

// SDKResult is the result of the action at i by the SDK's rule
// (ConversationState.get_unmatched_actions), read straight off the log:
// the first later observation or rejection with its event id as
// action_id, or agent error with its tool call id, while no later action
// has taken that tool call id.
func SDKResult(log *reducer.Log, i int) (int, bool) {
	ev := log.Event(i)
	a, ok := ev.Body.(*model.Action)
	if !ok {
		return 0, false
	}
	taken := false
	byCall := func(call string) bool { return !taken && a.ToolCallID != "" && call == a.ToolCallID }
	for j := i + 1; j < log.Len(); j++ {
		switch b := log.Event(j).Body.(type) {
		case *model.Action:
			taken = taken || (a.ToolCallID != "" && b.ToolCallID == a.ToolCallID)
		case *model.Observation:
			if (b.ActionID != "" && b.ActionID == ev.ID) || (b.ActionID == "" && byCall(b.ToolCallID)) {
				return j, true
			}
		case *model.UserReject:
			if (b.ActionID != "" && b.ActionID == ev.ID) || (b.ActionID == "" && byCall(b.ToolCallID)) {
				return j, true
			}
		case *model.AgentError:
			if byCall(b.ToolCallID) {
				return j, true
			}
		}
	}
	return 0, false
}

// WantText is what the compare detail shows as the output of result r.
func WantText(log *reducer.Log, r int, ok bool) string {
	if !ok {
		return ""
	}
	ev := log.Event(r)
	switch b := ev.Body.(type) {
	case *model.AgentError:
		return "error: " + b.Error
	case *model.UserReject:
		return "rejected: " + b.Reason
	}
	if d, _ := ev.Detail(); d != nil {
		if o, ok := d.(*model.ObservationEvent); ok {
			return sanitize.Text(o.Output())
		}
	}
	return ev.Summary
}

// WantOutcome is the compare screen's outcome of an action answered by r.
func WantOutcome(log *reducer.Log, r int, ok bool) compare.Outcome {
	if !ok {
		return compare.Pending
	}
	switch b := log.Event(r).Body.(type) {
	case *model.Observation:
		if b.IsError || (b.ExitCode != nil && *b.ExitCode != 0 && *b.ExitCode != -1) {
			return compare.Failed
		}
		return compare.OK
	case *model.UserReject:
		return compare.Rejected
	}
	return compare.Failed
}

// ResultRecordings are the recordings whose actions' results every screen
// is checked on: the project's own twins, and upstream's originals.
var ResultRecordings = []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan", "cli447_hi_followup_iterative_case_a"}

// ResultLogs are the logs on which an action's result is checked, the same
// for every screen that names one: the hard cases, the project's own
// recordings and a generated log.
func ResultLogs(tb testing.TB) map[string]*reducer.Log {
	logs := ResultCases(tb)
	for _, name := range ResultRecordings {
		logs["own "+name] = Twin(tb, name)
	}
	logs["errors"] = ErrorLog(tb)
	logs["generated"] = Generated(tb, 3000, 7)
	return logs
}
