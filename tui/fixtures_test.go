package tui

import (
	"encoding/json"
	"fmt"
	"testing"

	"ohwatch/reducer"
)

// stateUpdate is a per-field ConversationStateUpdateEvent.
func stateUpdate(id, ts, key string, value any) string {
	v, _ := json.Marshal(value)
	return fmt.Sprintf(`{"id":%q,"timestamp":%q,"source":"environment","key":%q,"value":%s,"kind":"ConversationStateUpdateEvent"}`,
		id, ts, key, v)
}

// fullState is a full_state snapshot with an execution status.
func fullState(id, ts, status string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":%q,"source":"environment","key":"full_state","value":{"execution_status":%q},"kind":"ConversationStateUpdateEvent"}`,
		id, ts, status)
}

// waitingLog is the real confirmation-mode recording up to its HIGH-risk
// action, then the status update that puts it in waiting_for_confirmation.
func waitingLog(tb testing.TB) *reducer.Log {
	tb.Helper()
	return waitingLogOn(tb, twin)
}

// waitingLogOn is waitingLog on the recording load reads.
func waitingLogOn(tb testing.TB, load loader) *reducer.Log {
	tb.Helper()
	full := load(tb, "confirmation_mode")
	log := reducer.NewLog(nil, 0)
	for i := 0; i <= 6; i++ {
		log.Append(full.Event(i))
	}
	log.Append(decode(tb, []byte(stateUpdate("c0000000-0000-4000-8000-000000000001",
		"2026-01-28T14:33:34.400000", "execution_status", "waiting_for_confirmation"))))
	return log
}

// errorLog is the real hello-world recording followed by an agent error,
// a failed command, and a conversation error that ends the run.
func errorLog(tb testing.TB) *reducer.Log {
	tb.Helper()
	return errorLogOn(tb, twin)
}

// errorLogOn is errorLog on the recording load reads.
func errorLogOn(tb testing.TB, load loader) *reducer.Log {
	tb.Helper()
	log := load(tb, "simple_echo_hello_world")
	extra := []string{
		`{"id":"e0000000-0000-4000-8000-000000000001","timestamp":"2026-01-27T03:56:30.000000","source":"agent","thought":[],"action":{"command":"cat missing.txt","is_input":false,"reset":false,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":"toolu_err1","tool_call":{"id":"toolu_err1","name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":"resp-err-1","security_risk":"LOW","summary":"Show a file that does not exist","kind":"ActionEvent"}`,
		`{"id":"e0000000-0000-4000-8000-000000000002","timestamp":"2026-01-27T03:56:31.250000","source":"environment","tool_name":"terminal","tool_call_id":"toolu_err1","action_id":"e0000000-0000-4000-8000-000000000001","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"cat: missing.txt: No such file or directory"}],"is_error":true,"command":"cat missing.txt","exit_code":1,"timeout":false,"metadata":{"exit_code":1}},"kind":"ObservationEvent"}`,
		`{"id":"e0000000-0000-4000-8000-000000000003","timestamp":"2026-01-27T03:56:33.000000","source":"agent","thought":[],"action":null,"tool_name":"terminal","tool_call_id":"toolu_err2","tool_call":{"id":"toolu_err2","name":"terminal","arguments":"{not json","origin":"completion"},"llm_response_id":"resp-err-2","security_risk":"UNKNOWN","kind":"ActionEvent"}`,
		`{"id":"e0000000-0000-4000-8000-000000000004","timestamp":"2026-01-27T03:56:33.100000","source":"agent","tool_name":"terminal","tool_call_id":"toolu_err2","error":"Error validating args {not json for tool 'terminal'","classification":{"kind":"agent_action","retryable":false,"user_action":"none"},"kind":"AgentErrorEvent"}`,
		`{"id":"e0000000-0000-4000-8000-000000000005","timestamp":"2026-01-27T03:56:40.000000","source":"environment","code":"MaxIterationsReached","detail":"Agent reached maximum iterations limit (3).","kind":"ConversationErrorEvent"}`,
	}
	for _, r := range extra {
		log.Append(decode(tb, []byte(r)))
	}
	return log
}

// hostileText carries everything that could drive a terminal: CSI and OSC
// sequences (an OSC 52 clipboard write), a carriage return, C1 controls,
// and bidi overrides.
const hostileText = "safe\x1b[2J\x1b]52;c;ZXZpbA==\x07\r\u202egnp.exe\u009b31m\u0085\x1b]0;title\x07\u2066x\u2069end"

// hostileLog is a recording with hostile text in every text field.
func hostileLog(tb testing.TB) *reducer.Log {
	tb.Helper()
	h, _ := json.Marshal(hostileText)
	hs := string(h)
	raws := []string{
		`{"id":"h1","timestamp":"2026-01-27T03:56:24.000000","source":"agent","system_prompt":{"type":"text","text":` + hs + `},"tools":[{"kind":"TerminalTool","title":` + hs + `}],"kind":"SystemPromptEvent"}`,
		`{"id":"h2","timestamp":"2026-01-27T03:56:25.000000","source":` + hs + `,"llm_message":{"role":"user","content":[{"type":"text","text":` + hs + `}]},"kind":"MessageEvent"}`,
		`{"id":"h3","timestamp":"2026-01-27T03:56:26.000000","source":"agent","thought":[{"type":"text","text":` + hs + `}],"action":{"command":` + hs + `,"kind":"TerminalAction"},"tool_name":` + hs + `,"tool_call_id":"t1","tool_call":{"id":"t1","name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":"r1","security_risk":"HIGH","summary":` + hs + `,"kind":"ActionEvent"}`,
		`{"id":"h4","timestamp":"2026-01-27T03:56:27.000000","source":"environment","tool_name":"terminal","tool_call_id":"t1","action_id":"h3","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":` + hs + `}],"command":` + hs + `,"exit_code":0},"kind":"ObservationEvent"}`,
		`{"id":"h5","timestamp":"2026-01-27T03:56:28.000000","source":"agent","thought":[],"action":{"command":"plan","task_list":[{"title":` + hs + `,"notes":` + hs + `,"status":"in_progress"}],"kind":"TaskTrackerAction"},"tool_name":"task_tracker","tool_call_id":"t2","tool_call":{"id":"t2","name":"task_tracker","arguments":"{}","origin":"completion"},"llm_response_id":"r2","security_risk":"LOW","summary":` + hs + `,"kind":"ActionEvent"}`,
		`{"id":"h6","timestamp":"2026-01-27T03:56:29.000000","source":"environment","tool_name":"task_tracker","tool_call_id":"t2","action_id":"h5","observation":{"kind":"TaskTrackerObservation","content":[{"type":"text","text":` + hs + `}],"command":"plan","task_list":[{"title":` + hs + `,"notes":` + hs + `,"status":"todo"}]},"kind":"ObservationEvent"}`,
		`{"id":"h7","timestamp":"2026-01-27T03:56:30.000000","source":"agent","tool_name":` + hs + `,"tool_call_id":"t3","error":` + hs + `,"kind":"AgentErrorEvent"}`,
		`{"id":"h8","timestamp":"2026-01-27T03:56:31.000000","source":"environment","code":` + hs + `,"detail":` + hs + `,"kind":"ConversationErrorEvent"}`,
		`{"id":"h9","timestamp":"2026-01-27T03:56:32.000000","source":"agent","kind":` + hs + `,` + hs + `:` + hs + `}`,
		stateUpdate("h10", "2026-01-27T03:56:33.000000", "execution_status", hostileText),
		`{"id":"h11","timestamp":"2026-01-27T03:56:34.000000","source":"agent","llm_message":{"role":"assistant","content":[{"type":"text","text":` + hs + `}],"reasoning_content":` + hs + `},"kind":"MessageEvent"}`,
	}
	log := reducer.NewLog(nil, 0)
	for _, r := range raws {
		log.Append(decode(tb, []byte(r)))
	}
	return log
}
