package conversation

import (
	"strings"
	"testing"
)

// inspectorCorpus is one event of every kind of model.Kinds and of the
// nested actions and observations the inspector renders in their own way,
// with the fields each shows, for the inspector's tests.
var inspectorCorpus = []struct {
	name string
	raw  string
	want []string
}{
	{"message", `{"id":"m1","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"MessageEvent","llm_message":{"role":"assistant","content":[{"type":"text","text":"Done: **all** tests pass.\nSee below."},{"type":"image","image_urls":["data:image/png;base64,AAAA","https://x/y.png"]}],"reasoning_content":"They asked twice.","thinking_blocks":[{"type":"thinking","thinking":"They asked twice.","signature":"s"},{"type":"thinking","thinking":"Also check CI.","signature":"s"}]},"sender":"sub-agent","extended_content":[{"type":"text","text":"<skill>go</skill>"}],"critic_result":{"score":0.75,"message":"Looks right."}}`,
		[]string{"role: assistant", "sender: sub-agent", "Message", "all", "[2 image(s)]", "Reasoning", "They asked twice.", "Thinking", "Also check CI.", "Extended content", "<skill>go</skill>", "critic score: 0.75", "Critic", "Looks right."}},
	{"terminal action", `{"id":"a1","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"ActionEvent","thought":[{"type":"text","text":"Run the tests."}],"reasoning_content":"tests first","action":{"kind":"TerminalAction","command":"go test ./...","is_input":false},"tool_name":"terminal","tool_call_id":"t1","llm_response_id":"r","security_risk":"MEDIUM","summary":"run tests","critic_result":{"score":1}}`,
		[]string{"tool: terminal", "risk: MEDIUM", "action: TerminalAction", "Command", "$ go test ./...", "Thought", "Run the tests.", "Reasoning", "tests first", "critic score: 1"}},
	{"unparsed action", `{"id":"a2","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"ActionEvent","action":null,"tool_name":"terminal","tool_call_id":"t1","tool_call":{"id":"t1","name":"terminal","arguments":"{\"command\": 7}","origin":"completion"}}`,
		[]string{"no parsed action", "Tool call arguments", `{"command": 7}`}},
	{"file view action", `{"id":"a3","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"ActionEvent","action":{"kind":"FileEditorAction","command":"view","path":"/w/a.go"},"tool_name":"file_editor","tool_call_id":"t1"}`,
		[]string{"action: FileEditorAction", "command: view", "path: /w/a.go"}},
	{"file create action", `{"id":"a4","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"ActionEvent","action":{"kind":"FileEditorAction","command":"create","path":"/w/b.go","file_text":"package w\n"},"tool_name":"file_editor","tool_call_id":"t1"}`,
		[]string{"command: create", "path: /w/b.go", "Diff", "+package w"}},
	{"task view action", `{"id":"a5","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"ActionEvent","action":{"kind":"TaskTrackerAction","command":"view","task_list":[]},"tool_name":"task_tracker","tool_call_id":"t1"}`,
		[]string{"command: view"}},
	{"mcp action", `{"id":"a6","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"ActionEvent","action":{"kind":"MCPToolAction","data":{"url":"https://example.com","max_length":5000}},"tool_name":"fetch","tool_call_id":"t1"}`,
		[]string{"action: MCPToolAction", "data", "https://example.com", "5000"}},
	{"glob action", `{"id":"a7","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"ActionEvent","action":{"kind":"GlobAction","pattern":"**/*.go","path":"/w"},"tool_name":"glob","tool_call_id":"t1"}`,
		[]string{"action: GlobAction", "pattern: **/*.go", "path: /w"}},
	{"client action", `{"id":"a8","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"ActionEvent","action":{"kind":"ClientAction_open_url","url":"https://docs","new_window":true},"tool_name":"open_url","tool_call_id":"t1"}`,
		[]string{"action: ClientAction_open_url", "url: https://docs", "new_window: true"}},
	{"terminal observation", `{"id":"o1","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"terminal","tool_call_id":"t1","action_id":"a1","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"FAIL\tcache"}],"command":"go test ./...","exit_code":1,"is_error":true,"timeout":true,"metadata":{"exit_code":1}}}`,
		[]string{"tool: terminal", "observation: TerminalObservation", "is_error: true", "$ go test ./...", "exit code: 1", "timed out", "Output", "FAIL    cache"}},
	{"legacy bash observation", `{"id":"o2","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"execute_bash","tool_call_id":"t1","action_id":"a1","observation":{"kind":"ExecuteBashObservation","content":[{"type":"text","text":"ok"}],"exit_code":null,"metadata":{"exit_code":2}}}`,
		[]string{"observation: ExecuteBashObservation", "exit code: 2", "ok"}},
	{"file view observation", `{"id":"o3","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"file_editor","tool_call_id":"t1","action_id":"a3","observation":{"kind":"FileEditorObservation","command":"view","path":"/w/a.go","prev_exist":true,"content":[{"type":"text","text":"1\tpackage w"}]}}`,
		[]string{"command: view", "path: /w/a.go", "Output", "package w"}},
	{"task observation", `{"id":"o4","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"task_tracker","tool_call_id":"t1","action_id":"a5","observation":{"kind":"TaskTrackerObservation","command":"view","task_list":[{"title":"Write tests","notes":"table","status":"todo"}],"content":[{"type":"text","text":"1 task"}]}}`,
		[]string{"command: view", "Tasks", "☐ Write tests", "table"}},
	{"empty task observation", `{"id":"o5","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"task_tracker","tool_call_id":"t1","action_id":"a5","observation":{"kind":"TaskTrackerObservation","command":"view","task_list":[],"content":[]}}`,
		[]string{"Tasks", "(empty)"}},
	{"mcp observation", `{"id":"o6","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"fetch","tool_call_id":"t1","action_id":"a6","observation":{"kind":"MCPToolObservation","tool_name":"fetch","content":[{"type":"text","text":"<html>"}],"is_error":false}}`,
		[]string{"observation: MCPToolObservation", "Output", "<html>"}},
	{"unknown observation", `{"id":"o7","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"x","tool_call_id":"t1","action_id":"a9","observation":{"kind":"FutureObservation","content":[{"type":"text","text":"later"}]}}`,
		[]string{"observation: FutureObservation", "Output", "later"}},
	{"user reject", `{"id":"r1","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"UserRejectObservation","tool_name":"terminal","tool_call_id":"t1","action_id":"a1","rejection_reason":"Not on main.","rejection_source":"hook"}`,
		[]string{"tool: terminal", "rejected by: hook", "Reason", "Not on main."}},
	{"agent error", `{"id":"e1","timestamp":"2026-01-27T03:56:25","source":"agent","kind":"AgentErrorEvent","tool_name":"terminal","tool_call_id":"t1","error":"bad args\nsecond line","classification":{"kind":"agent_action","retryable":true}}`,
		[]string{"tool: terminal", "classification: agent_action", "Error", "bad args", "second line"}},
	{"conversation error", `{"id":"e2","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ConversationErrorEvent","code":"MaxIterationsReached","detail":"Agent reached maximum iterations limit (500)."}`,
		[]string{"code: MaxIterationsReached", "Detail", "maximum iterations"}},
	// The kinds newer than SDK 1.43.1, written from upstream's field names
	// (openhands-sdk event/ask_user.py, ask_user_schema.py, security.py,
	// warning.py, conversation_iteration_limit.py, security_analyzer.py).
	{"ask user request", `{"id":"q1","timestamp":"2026-11-20T10:00:00","source":"agent","kind":"AskUserRequestEvent","request_id":"req-1","questions":[{"id":"auth","question":"Which auth strategy?","options":[{"id":"jwt","label":"JWT bearer tokens","description":null},{"id":"session","label":"Server sessions","description":"cookies"}],"multi_select":true},{"id":"why","question":"Anything else?","options":[]}],"action_id":"a1","tool_call_id":"t1","tool_name":"ask_user","timeout_seconds":300}`,
		[]string{"request: req-1", "action: a1", "timeout: 300s", "Question auth (several answers allowed)", "Which auth strategy?", "1. JWT bearer tokens [jwt]", "2. Server sessions [session] — cookies", "Question why", "(free text)"}},
	{"ask user response", `{"id":"q2","timestamp":"2026-11-20T10:00:09","source":"user","kind":"AskUserResponseEvent","request_id":"req-1","action":"accept","answers":{"auth":[{"option_id":"jwt","label":"JWT bearer tokens"},{"option_id":"session","label":"Server sessions"}],"why":{"option_id":"text","label":"no"}}}`,
		[]string{"request: req-1", "answer: accept", "auth: JWT bearer tokens, Server sessions", "why: no"}},
	{"security analysis", `{"id":"sa","timestamp":"2026-11-20T10:00:01","source":"environment","kind":"SecurityAnalysisEvent","analyzer":"LLMSecurityAnalyzer","policy":"ConfirmRisky","risks":{"a1":"HIGH"},"details":{}}`,
		[]string{"analyzer: LLMSecurityAnalyzer", "policy: ConfirmRisky", "a1: HIGH"}},
	{"warning", `{"id":"w1","timestamp":"2026-11-20T10:00:01","source":"environment","kind":"WarningEvent","message":"critic evaluation failed"}`,
		[]string{"warning", "critic evaluation failed"}},
	{"iteration limit", `{"id":"l1","timestamp":"2026-11-20T10:00:01","source":"environment","kind":"ConversationIterationLimitEvent","iteration":50,"max_iterations":50,"detail":"per-run budget spent"}`,
		[]string{"iterations: 50 of 50", "Detail", "per-run budget spent"}},
	{"analyzer configuration", `{"id":"c1","timestamp":"2026-11-20T10:00:01","source":"agent","kind":"SecurityAnalyzerConfigurationEvent","analyzer_type":"LLMSecurityAnalyzer"}`,
		[]string{"LLMSecurityAnalyzer"}},
	{"server error", `{"id":"e3","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ServerErrorEvent","code":"ValidationError","detail":"bad frame"}`,
		[]string{"code: ValidationError", "Detail", "bad frame"}},
	{"system prompt", `{"id":"s1","timestamp":"2026-01-27T03:56:20","source":"agent","kind":"SystemPromptEvent","system_prompt":{"type":"text","text":"You are OpenHands agent."},"dynamic_context":{"type":"text","text":"Today is Monday."},"tools":[{"kind":"TerminalTool","title":"terminal"},{"kind":"FileEditorTool","title":"file_editor"}]}`,
		[]string{"tools: terminal, file_editor", "System prompt", "You are OpenHands agent.", "Dynamic context", "Today is Monday."}},
	{"state update", `{"id":"u1","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ConversationStateUpdateEvent","key":"execution_status","value":"finished"}`,
		[]string{"key: execution_status", "value: finished"}},
	{"state snapshot", `{"id":"u2","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ConversationStateUpdateEvent","key":"full_state","value":{"execution_status":"idle","stats":{"usage_to_metrics":{}}}}`,
		[]string{"key: full_state", "value", "execution_status", "idle"}},
	{"condensation", `{"id":"c1","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"Condensation","forgotten_event_ids":["a","b"],"summary":"They fixed the cache.\nThen the tests.","summary_offset":1,"llm_response_id":"r9"}`,
		[]string{"forgotten_event_ids", `"a"`, "summary", "They fixed the cache.", "summary_offset: 1", "llm_response_id: r9"}},
	{"condensation request", `{"id":"c2","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"CondensationRequest"}`,
		[]string{"CondensationRequest"}},
	{"condensation summary", `{"id":"c3","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"CondensationSummaryEvent","summary":"They fixed the cache."}`,
		[]string{"summary: They fixed the cache."}},
	{"hook", `{"id":"h1","timestamp":"2026-01-27T03:56:25","source":"hook","kind":"HookExecutionEvent","hook_event_type":"PreToolUse","hook_command":"./check.sh","tool_name":"terminal","success":false,"blocked":true,"exit_code":2,"stdout":"","stderr":"no\nreally","reason":"dangerous","action_id":"a1"}`,
		[]string{"hook_event_type: PreToolUse", "hook_command: ./check.sh", "tool_name: terminal", "success: false", "blocked: true", "exit_code: 2", "stderr", "really", "reason: dangerous", "action_id: a1"}},
	{"acp tool call", `{"id":"p1","timestamp":"2026-01-27T03:56:25","source":"agent","kind":"ACPToolCallEvent","tool_call_id":"t1","title":"Read file","status":"completed","tool_kind":"read","raw_input":{"path":"/a"},"content":[{"type":"text","text":"x"}],"is_error":false}`,
		[]string{"title: Read file", "status: completed", "tool_kind: read", "raw_input", `"/a"`, "is_error: false"}},
	{"pause", `{"id":"q1","timestamp":"2026-01-27T03:56:25","source":"user","kind":"PauseEvent"}`,
		[]string{"PauseEvent", "paused by the user"}},
	{"interrupt", `{"id":"q2","timestamp":"2026-01-27T03:56:25","source":"user","kind":"InterruptEvent"}`,
		[]string{"InterruptEvent", "interrupted by the user"}},
	{"completion log", `{"id":"l1","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"LLMCompletionLogEvent","filename":"f.json","log_data":"{\"messages\":[]}","model_name":"claude","usage_id":"agent"}`,
		[]string{"filename: f.json", "log_data: {\"messages\":[]}", "model_name: claude", "usage_id: agent"}},
	{"streaming delta", `{"id":"d1","timestamp":"2026-01-27T03:56:25","source":"agent","kind":"StreamingDeltaEvent","content":"Hel","reasoning_content":null}`,
		[]string{"content: Hel"}},
	{"token ids", `{"id":"k1","timestamp":"2026-01-27T03:56:25","source":"agent","kind":"TokenEvent","prompt_token_ids":[1,2],"response_token_ids":[3]}`,
		[]string{"prompt_token_ids", "response_token_ids"}},
	{"unknown kind", `{"id":"x1","timestamp":"2026-01-27T03:56:25","source":"agent","kind":"FutureEvent","answer":42,"nested":{"a":[1,2]},"note":"two\nlines"}`,
		[]string{"FutureEvent", "answer: 42", "nested", "note", "two", "lines"}},
	{"malformed", `{"id":"x2","timestamp":"2026-01-27T03:56:25","source":"agent","kind":"ActionEvent","tool_name":7,"action":{"kind":"TerminalAction","command":"ls"}}`,
		[]string{"malformed: field tool_name", "action: TerminalAction", "$ ls"}},
}

// TestInspectorShowsTheParent: the event's parent (parent_id, the HEAD it
// was written under) is a header line of every kind.
func TestInspectorShowsTheParent(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"kind":"MessageEvent","id":"m","parent_id":"p1","llm_message":{"role":"user","content":[]}}`,
		`{"kind":"ConversationStateUpdateEvent","id":"u","parent_id":"p1","key":"stats","value":{}}`,
		`{"kind":"FutureEvent","id":"f","parent_id":"p1"}`,
	} {
		out := rendered(t, raw)
		if !strings.Contains(out, "\nparent p1\n") || strings.Contains(out, "parent_id") {
			t.Errorf("%s:\n%s", raw, out)
		}
	}
}
