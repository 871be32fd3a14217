package tui

import (
	"fmt"
	"strings"
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
	return fixtureLog(tb, raws...)
}

// rcID is the uuid of hand-written event n.
func rcID(n int) string { return fmt.Sprintf("a0000000-0000-4000-8000-%012d", n) }

// rcAction is terminal action n running cmd under tool call id call.
func rcAction(n int, call, resp, cmd string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"agent","thought":[],"action":{"command":%q,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":%q,"tool_call":{"id":%q,"name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":%q,"security_risk":"LOW","summary":"run","kind":"ActionEvent"}`,
		rcID(n), n%60, cmd, call, call, resp)
}

// rcEdit is file-editor action n under tool call id call.
func rcEdit(n int, call string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"agent","thought":[],"action":{"command":"view","path":"/w/a.txt","kind":"FileEditorAction"},"tool_name":"file_editor","tool_call_id":%q,"tool_call":{"id":%q,"name":"file_editor","arguments":"{}","origin":"completion"},"llm_response_id":"r-edit","security_risk":"LOW","summary":"view","kind":"ActionEvent"}`,
		rcID(n), n%60, call, call)
}

// rcObs is observation n of action (an event number) under call, with its
// output and exit code.
func rcObs(n, action int, call, out string, exit int) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"environment","tool_name":"terminal","tool_call_id":%q,"action_id":%q,"observation":{"kind":"TerminalObservation","content":[{"type":"text","text":%q}],"is_error":false,"exit_code":%d,"timeout":false,"metadata":{"exit_code":%d}},"kind":"ObservationEvent"}`,
		rcID(n), n%60, call, rcID(action), out, exit, exit)
}

// rcEditObs is the file editor's observation n of action.
func rcEditObs(n, action int, call string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"environment","tool_name":"file_editor","tool_call_id":%q,"action_id":%q,"observation":{"kind":"FileEditorObservation","content":[{"type":"text","text":"hello"}],"command":"view","path":"/w/a.txt","is_error":false},"kind":"ObservationEvent"}`,
		rcID(n), n%60, call, rcID(action))
}

// rcError is agent error n for call.
func rcError(n int, call, text string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"agent","tool_name":"terminal","tool_call_id":%q,"error":%q,"kind":"AgentErrorEvent"}`,
		rcID(n), n%60, call, text)
}

// rcReject is the user's rejection n of action.
func rcReject(n, action int, call string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-01-27T03:56:%02d.000000","source":"user","tool_name":"terminal","tool_call_id":%q,"action_id":%q,"rejection_reason":"not now","rejection_source":"user","kind":"UserRejectObservation"}`,
		rcID(n), n%60, call, rcID(action))
}

// resultCases are logs in which the inspector, the compare detail and the
// compare screen's outcome each found the result of an action their own
// way, and named different ones.
func resultCases(tb testing.TB) map[string]*reducer.Log {
	tb.Helper()
	far := []string{rcAction(1, "toolu_far", "r1", "sleep 9")}
	for k := 2; k < 2+300; k++ {
		far = append(far, stateUpdate(rcID(k), "2026-01-27T03:57:00.000000", "stats", map[string]any{}))
	}
	far = append(far, rcObs(302, 1, "toolu_far", "slept", 0))
	return map[string]*reducer.Log{
		// One response's parallel calls with one tool call id (some
		// providers number calls per response): each result names its
		// action by action_id.
		"shared call id in one response": resultCaseLog(tb,
			rcAction(1, "call_0", "r1", "echo one"), rcAction(2, "call_0", "r1", "false"),
			rcObs(3, 1, "call_0", "one", 0), rcObs(4, 2, "call_0", "", 1)),
		// The first call's id comes back in a later response while it
		// has no result: a later result by that id is not its.
		"reused call id, first unanswered": resultCaseLog(tb,
			rcAction(1, "call_0", "r1", "serve"), rcAction(2, "call_0", "r2", "echo two"),
			rcObs(3, 2, "call_0", "two", 0)),
		// A long wait: the result comes 300 events after its action.
		"result far from its action": resultCaseLog(tb, far...),
		// A restart's agent error takes the place of a terminal result;
		// a rejection answers too; a file editor's observation too.
		"error, rejection, editor": resultCaseLog(tb,
			rcAction(1, "toolu_a", "r1", "make"), rcError(2, "toolu_a", "A restart occurred while this tool was in progress"),
			rcAction(3, "toolu_b", "r2", "rm -rf /"), rcReject(4, 3, "toolu_b"),
			rcEdit(5, "toolu_c"), rcEditObs(6, 5, "toolu_c")),
	}
}

// sdkResult is the result of the action at i by the SDK's rule
// (ConversationState.get_unmatched_actions), read straight off the log:
// the first later observation or rejection with its event id as
// action_id, or agent error with its tool call id, while no later action
// has taken that tool call id.
func sdkResult(log *reducer.Log, i int) (int, bool) {
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

// wantText is what the compare detail shows as the output of result r.
func wantText(log *reducer.Log, r int, ok bool) string {
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

// wantOutcome is the compare screen's outcome of an action answered by r.
func wantOutcome(log *reducer.Log, r int, ok bool) compare.Outcome {
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

// TestEveryScreenNamesOneResult: the inspector, the compare detail and
// the compare screen's outcome name the same result for every action —
// the one the SDK's rule names — on the hard cases, the recordings and
// generated logs.
func TestEveryScreenNamesOneResult(t *testing.T) {
	t.Parallel()
	logs := resultCases(t)
	for _, name := range []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan", "cli447_hi_followup_iterative_case_a"} {
		logs["own "+name] = twin(t, name)
	}
	logs["errors"] = errorLog(t)
	logs["generated"] = generated(t, 3000, 7)
	for name, log := range logs {
		t.Run(name, func(t *testing.T) {
			m := newModel(Options{Log: log}, 120, 40)
			run := compare.NewRun(compare.Side{Name: "A", Log: log})
			steps := compare.NewSteps(log)
			steps.Update()
			actions := 0
			for _, st := range steps.Along(log.HeadPath()) {
				if st.Kind != compare.Action {
					continue
				}
				actions++
				i := st.Event
				r, ok := sdkResult(log, i)
				job := m.inspectJobFor(i)
				if got := job.resultIndex >= 0; got != ok || (ok && job.resultIndex != r) {
					t.Errorf("event %d: inspector's result %v at %d, the SDK's %v at %d", i, got, job.resultIndex, ok, r)
				}
				if _, out := stepTexts(run, st); out != wantText(log, r, ok) {
					t.Errorf("event %d: compare detail's output %q, the SDK's result says %q", i, out, wantText(log, r, ok))
				}
				if want := wantOutcome(log, r, ok); st.Outcome != want {
					t.Errorf("event %d: compare outcome %v, the SDK's result says %v", i, st.Outcome, want)
				}
			}
			if actions == 0 {
				t.Fatal("no action in the log")
			}
		})
	}
}

// TestEveryScreenNamesOneResultUpstream is TestEveryScreenNamesOneResult
// on the upstream recordings.
func TestEveryScreenNamesOneResultUpstream(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan", "cli447_hi_followup_iterative_case_a"} {
		log := trajectory(t, name)
		run := compare.NewRun(compare.Side{Name: "A", Log: log})
		m := newModel(Options{Log: log}, 120, 40)
		steps := compare.NewSteps(log)
		steps.Update()
		for _, st := range steps.Along(log.HeadPath()) {
			if st.Kind != compare.Action {
				continue
			}
			r, ok := sdkResult(log, st.Event)
			job := m.inspectJobFor(st.Event)
			_, out := stepTexts(run, st)
			if (job.resultIndex >= 0) != ok || (ok && job.resultIndex != r) || out != wantText(log, r, ok) || st.Outcome != wantOutcome(log, r, ok) {
				t.Errorf("%s event %d: inspector %v@%d, detail %q, outcome %v; SDK %v@%d", name, st.Event,
					job.resultIndex >= 0, job.resultIndex, strings.TrimSpace(out), st.Outcome, ok, r)
			}
		}
	}
}
