package model

import (
	"reflect"
	"testing"
)

// header is the common prefix of the crafted events below.
const header = `"id":"e1","timestamp":"2026-01-27T03:56:22.906445","source":"environment"`

func intPtr(n int) *int { return &n }

// TestDecodeEveryKind covers every event kind of protocol §2, the nested
// kinds, legacy names, MCP and client tools, and null-versus-absent fields.
func TestDecodeEveryKind(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		body    Body
		summary string
	}{
		{"message with tool calls and sender", `{` + header + `,"kind":"MessageEvent","llm_message":{"role":"assistant","content":[{"type":"image","image_urls":["data:image/png;base64,AAAA"]},{"type":"text","text":"Line one\nline two"}],"tool_calls":[{"id":"c1","name":"terminal","arguments":"{}","origin":"completion"}]},"llm_response_id":"r1","sender":"sub-agent"}`,
			&Message{Role: "assistant", LLMResponseID: "r1", HasToolCalls: true, Sender: "sub-agent"}, "sub-agent (assistant): Line one"},
		{"message image only, nulls", `{` + header + `,"kind":"MessageEvent","llm_message":{"role":"user","content":[{"type":"image","image_urls":["https://x/y.png"]}],"tool_calls":null,"reasoning_content":null},"llm_response_id":null,"sender":null,"critic_result":null}`,
			&Message{Role: "user"}, "user: [1 image(s)]"},
		{"action without summary: command", `{` + header + `,"kind":"ActionEvent","action":{"kind":"TerminalAction","command":"make test\necho done","is_input":false},"tool_name":"terminal","tool_call_id":"c1","llm_response_id":"r1"}`,
			&Action{ActionKind: "TerminalAction", ToolName: "terminal", ToolCallID: "c1", LLMResponseID: "r1", SecurityRisk: "UNKNOWN", Command: "make test"}, "$ make test"},
		{"legacy execute_bash action", `{` + header + `,"kind":"ActionEvent","action":{"kind":"ExecuteBashAction","command":"ls"},"tool_name":"execute_bash","tool_call_id":"c1","security_risk":"MEDIUM"}`,
			&Action{ActionKind: "ExecuteBashAction", ToolName: "execute_bash", ToolCallID: "c1", SecurityRisk: "MEDIUM", Command: "ls"}, "$ ls"},
		{"legacy str_replace_editor action: path", `{` + header + `,"kind":"ActionEvent","action":{"kind":"FileEditorAction","command":"str_replace","path":"/src/a.go","old_str":"a","new_str":"b"},"tool_name":"str_replace_editor","tool_call_id":"c1"}`,
			&Action{ActionKind: "FileEditorAction", ToolName: "str_replace_editor", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "str_replace: /src/a.go"},
		{"mcp action: tool name", `{` + header + `,"kind":"ActionEvent","action":{"kind":"MCPToolAction","data":{"url":"https://example.com"}},"tool_name":"fetch","tool_call_id":"c1"}`,
			&Action{ActionKind: "MCPToolAction", ToolName: "fetch", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "fetch"},
		{"client tool action", `{` + header + `,"kind":"ActionEvent","action":{"kind":"ClientAction_open_url","url":"x"},"tool_name":"open_url","tool_call_id":"c1","summary":"Open the docs"}`,
			&Action{ActionKind: "ClientAction_open_url", ToolName: "open_url", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "Open the docs"},
		{"finish without summary", `{` + header + `,"kind":"ActionEvent","action":{"kind":"FinishAction","message":"All done.\nDetails"},"tool_name":"finish","tool_call_id":"c1"}`,
			&Action{ActionKind: "FinishAction", ToolName: "finish", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "finish: All done."},
		{"glob without summary", `{` + header + `,"kind":"ActionEvent","action":{"kind":"GlobAction","pattern":"**/*.go"},"tool_name":"glob","tool_call_id":"c1"}`,
			&Action{ActionKind: "GlobAction", ToolName: "glob", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "glob: **/*.go"},
		{"browser navigate without summary", `{` + header + `,"kind":"ActionEvent","action":{"kind":"BrowserNavigateAction","url":"https://example.com","new_tab":false},"tool_name":"browser_navigate","tool_call_id":"c1"}`,
			&Action{ActionKind: "BrowserNavigateAction", ToolName: "browser_navigate", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "browser_navigate: https://example.com"},
		{"gemini read without summary", `{` + header + `,"kind":"ActionEvent","action":{"kind":"ReadFileAction","file_path":"/a.go"},"tool_name":"read_file","tool_call_id":"c1"}`,
			&Action{ActionKind: "ReadFileAction", ToolName: "read_file", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "read_file: /a.go"},
		{"action null: call not parsed", `{` + header + `,"kind":"ActionEvent","action":null,"tool_name":"terminal","tool_call_id":"c1"}`,
			&Action{ToolName: "terminal", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "terminal (call not parsed)"},
		{"action absent", `{` + header + `,"kind":"ActionEvent","tool_name":"terminal","tool_call_id":"c1"}`,
			&Action{ToolName: "terminal", ToolCallID: "c1", SecurityRisk: "UNKNOWN"}, "terminal (call not parsed)"},
		{"task plan without summary", `{` + header + `,"kind":"ActionEvent","action":{"kind":"TaskTrackerAction","command":"plan","task_list":[{"title":"a","status":"done"},{"title":"b","notes":"n1\n\u001b[31mn2","status":"in_progress"},{"title":"c","status":"todo"}]},"tool_name":"task_tracker","tool_call_id":"c1"}`,
			&Action{ActionKind: "TaskTrackerAction", ToolName: "task_tracker", ToolCallID: "c1", SecurityRisk: "UNKNOWN", TaskCommand: "plan", Plan: []Task{{Title: "a", Status: "done"}, {Title: "b", Notes: "n1\nn2", Status: "in_progress"}, {Title: "c", Status: "todo"}}}, "plan 3 tasks: 1 done, 1 in progress, 1 todo"},
		{"terminal error observation", `{` + header + `,"kind":"ObservationEvent","tool_name":"terminal","tool_call_id":"c1","action_id":"a1","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"bash: foo: command not found\nmore"}],"is_error":true,"exit_code":127}}`,
			&Observation{ObservationKind: "TerminalObservation", ToolName: "terminal", ToolCallID: "c1", ActionID: "a1", IsError: true, ExitCode: intPtr(127)}, "error: bash: foo: command not found"},
		{"terminal soft timeout", `{` + header + `,"kind":"ObservationEvent","tool_name":"terminal","tool_call_id":"c1","action_id":"a1","observation":{"kind":"TerminalObservation","content":[],"exit_code":-1,"timeout":true}}`,
			&Observation{ObservationKind: "TerminalObservation", ToolName: "terminal", ToolCallID: "c1", ActionID: "a1", ExitCode: intPtr(-1)}, "terminal: still running (exit -1)"},
		{"legacy bash observation, exit code in metadata", `{` + header + `,"kind":"ObservationEvent","tool_name":"execute_bash","tool_call_id":"c1","action_id":"a1","observation":{"kind":"ExecuteBashObservation","content":[{"type":"text","text":"ok"}],"exit_code":null,"metadata":{"exit_code":2,"pid":-1}}}`,
			&Observation{ObservationKind: "ExecuteBashObservation", ToolName: "execute_bash", ToolCallID: "c1", ActionID: "a1", ExitCode: intPtr(2)}, "execute_bash: exit 2"},
		{"mcp observation", `{` + header + `,"kind":"ObservationEvent","tool_name":"fetch","tool_call_id":"c1","action_id":"a1","observation":{"kind":"MCPToolObservation","tool_name":"fetch","content":[{"type":"text","text":"[Tool 'fetch' executed.]"},{"type":"text","text":"<html>"}],"is_error":false}}`,
			&Observation{ObservationKind: "MCPToolObservation", ToolName: "fetch", ToolCallID: "c1", ActionID: "a1"}, "fetch: [Tool 'fetch' executed.]"},
		{"client tool observation", `{` + header + `,"kind":"ObservationEvent","tool_name":"open_url","tool_call_id":"c1","action_id":"a1","observation":{"kind":"ClientToolObservation","content":[{"type":"text","text":"opened"}]}}`,
			&Observation{ObservationKind: "ClientToolObservation", ToolName: "open_url", ToolCallID: "c1", ActionID: "a1"}, "open_url: opened"},
		{"task list empty", `{` + header + `,"kind":"ObservationEvent","tool_name":"task_tracker","tool_call_id":"c1","action_id":"a1","observation":{"kind":"TaskTrackerObservation","command":"view","task_list":[],"content":[{"type":"text","text":"No task list found."}]}}`,
			&Observation{ObservationKind: "TaskTrackerObservation", ToolName: "task_tracker", ToolCallID: "c1", ActionID: "a1", TaskCommand: "view", TaskList: []Task{}, HasTaskList: true}, "0 tasks"},
		{"user reject", `{` + header + `,"kind":"UserRejectObservation","tool_name":"terminal","tool_call_id":"c1","action_id":"a1","rejection_reason":"User rejected the action"}`,
			&UserReject{ToolName: "terminal", ToolCallID: "c1", ActionID: "a1", Reason: "User rejected the action", RejectionSource: "user"}, "rejected: User rejected the action"},
		{"hook reject", `{` + header + `,"kind":"UserRejectObservation","tool_name":"terminal","tool_call_id":"c1","action_id":"a1","rejection_reason":"rm blocked","rejection_source":"hook"}`,
			&UserReject{ToolName: "terminal", ToolCallID: "c1", ActionID: "a1", Reason: "rm blocked", RejectionSource: "hook"}, "blocked by hook: rm blocked"},
		{"agent error", `{` + header + `,"kind":"AgentErrorEvent","tool_name":"terminal","tool_call_id":"c1","error":"A restart occurred while this tool was in progress.\nDetails","classification":{"kind":"internal","retryable":false,"user_action":"none"}}`,
			&AgentError{ToolName: "terminal", ToolCallID: "c1", Error: "A restart occurred while this tool was in progress.", Classification: "internal"}, "A restart occurred while this tool was in progress."},
		{"system prompt with legacy tool names", `{` + header + `,"kind":"SystemPromptEvent","system_prompt":{"type":"text","text":"You are"},"tools":[{"kind":"BashTool","title":"execute_bash"},{"kind":"X","name":"str_replace_editor"}]}`,
			&SystemPrompt{Tools: []string{"execute_bash", "str_replace_editor"}}, "system prompt, 2 tools"},
		{"condensation summary", `{` + header + `,"kind":"CondensationSummaryEvent","summary":"The user asked for X.\nThen Y."}`,
			&CondensationSummary{}, "summary: The user asked for X."},
		{"execution status", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"execution_status","value":"running"}`,
			&StateUpdate{Key: "execution_status", ExecutionStatus: "running"}, "execution_status=running"},
		{"legacy agent status", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"agent_status","value":"finished"}`,
			&StateUpdate{Key: "agent_status", ExecutionStatus: "finished"}, "agent_status=finished"},
		{"stats snapshot", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"stats","value":{"usage_to_metrics":{"default":{"model_name":"m","accumulated_cost":0.0123,"max_budget_per_task":null,"accumulated_token_usage":{"model":"m","prompt_tokens":35895,"completion_tokens":0,"cache_read_tokens":1115,"cache_write_tokens":0,"reasoning_tokens":0,"context_window":0,"per_turn_token":35484,"response_id":""}}}}}`,
			&StateUpdate{Key: "stats", Stats: &Stats{UsageToMetrics: map[string]*Metrics{"default": {ModelName: "m", AccumulatedCost: 0.0123, Accumulated: TokenUsage{Model: "m", Prompt: 35895, CacheRead: 1115, PerTurn: 35484}}}}}, "stats: $0.01, 35.9k tokens"},
		{"legacy stats", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"stats","value":{"service_to_metrics":{"agent":{"accumulated_cost":1.5,"accumulated_token_usage":{"prompt_tokens":1200000,"completion_tokens":300000}}}}}`,
			&StateUpdate{Key: "stats", Stats: &Stats{UsageToMetrics: map[string]*Metrics{"agent": {AccumulatedCost: 1.5, Accumulated: TokenUsage{Prompt: 1200000, Completion: 300000}}}}}, "stats: $1.50, 1.5M tokens"},
		{"stats without a price", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"stats","value":{"usage_to_metrics":{"default":{"accumulated_cost":0.0,"accumulated_token_usage":{"prompt_tokens":950,"completion_tokens":50}}}}}`,
			&StateUpdate{Key: "stats", Stats: &Stats{UsageToMetrics: map[string]*Metrics{"default": {Accumulated: TokenUsage{Prompt: 950, Completion: 50}}}}}, "stats: cost unknown, 1k tokens"},
		{"confirmation policy", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"confirmation_policy","value":{"kind":"ConfirmRisky","threshold":"HIGH","confirm_unknown":true}}`,
			&StateUpdate{Key: "confirmation_policy", ConfirmationPolicy: "ConfirmRisky"}, "confirmation_policy=ConfirmRisky"},
		{"full state", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"full_state","value":{"id":"x","agent":{"kind":"Agent"},"execution_status":"finished","confirmation_policy":{"kind":"NeverConfirm"},"stats":{"usage_to_metrics":{"agent":{"accumulated_cost":0.5,"costs":[{"model":"m","cost":0.5,"timestamp":1757015025.97}],"response_latencies":[{"model":"m","latency":4.5,"response_id":"r1"}],"token_usages":[{"prompt_tokens":10,"response_id":"r1"}]}}}}}`,
			&StateUpdate{Key: "full_state", FullState: true, ExecutionStatus: "finished", ConfirmationPolicy: "NeverConfirm", Stats: &Stats{UsageToMetrics: map[string]*Metrics{"agent": {AccumulatedCost: 0.5, Costs: []Cost{{Model: "m", Cost: 0.5, Timestamp: 1757015025.97}}, Latencies: []Latency{{Model: "m", Latency: 4.5, ResponseID: "r1"}}, TokenUsages: []TokenUsage{{Prompt: 10, ResponseID: "r1"}}}}}}, "full_state (finished)"},
		{"other key string", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"last_user_message_id","value":"u1"}`,
			&StateUpdate{Key: "last_user_message_id"}, "last_user_message_id=u1"},
		{"other key object", `{` + header + `,"kind":"ConversationStateUpdateEvent","key":"goal","value":{"active":true}}`,
			&StateUpdate{Key: "goal"}, "goal updated"},
		{"conversation error", `{` + header + `,"kind":"ConversationErrorEvent","code":"MaxIterationsReached","detail":"Agent reached maximum iterations limit (500)."}`,
			&ConversationError{Code: "MaxIterationsReached", Detail: "Agent reached maximum iterations limit (500)."}, "MaxIterationsReached: Agent reached maximum iterations limit (500)."},
		{"condensation", `{` + header + `,"kind":"Condensation","forgotten_event_ids":["a","b"],"summary":"short","summary_offset":1,"llm_response_id":"r9"}`,
			&Condensation{ForgottenIDs: []string{"a", "b"}, LLMResponseID: "r9"}, "condensation: 2 events forgotten: short"},
		{"condensation request", `{` + header + `,"kind":"CondensationRequest"}`, &CondensationRequest{}, "condensation requested"},
		{"pause", `{` + header + `,"kind":"PauseEvent"}`, &Pause{}, "paused by the user"},
		{"interrupt", `{` + header + `,"kind":"InterruptEvent"}`, &Interrupt{}, "interrupted by the user"},
		{"hook blocked", `{` + header + `,"kind":"HookExecutionEvent","hook_event_type":"PreToolUse","hook_command":"./check.sh","tool_name":"terminal","success":false,"blocked":true,"exit_code":2,"stdout":"","stderr":"no","reason":"dangerous"}`,
			&Hook{HookEventType: "PreToolUse", ToolName: "terminal", Blocked: true, ExitCode: 2}, "PreToolUse hook on terminal: blocked: dangerous"},
		{"hook ok", `{` + header + `,"kind":"HookExecutionEvent","hook_event_type":"Stop","hook_command":"x","success":true,"blocked":false,"exit_code":0}`,
			&Hook{HookEventType: "Stop", Success: true}, "Stop hook: ok"},
		{"completion log", `{` + header + `,"kind":"LLMCompletionLogEvent","filename":"f.json","log_data":"{\"messages\":[]}","model_name":"claude","usage_id":"agent"}`,
			&LLMCompletionLog{ModelName: "claude", UsageID: "agent"}, "LLM completion log (claude)"},
		{"legacy completion log", `{` + header + `,"kind":"LLMCompletionLogEvent","log_data":"{}","model_name":"gpt","service_id":"condenser"}`,
			&LLMCompletionLog{ModelName: "gpt", UsageID: "condenser"}, "LLM completion log (gpt)"},
		{"streaming delta", `{` + header + `,"kind":"StreamingDeltaEvent","content":"Hel"}`, &StreamingDelta{}, "delta: Hel"},
		{"streaming reasoning delta", `{` + header + `,"kind":"StreamingDeltaEvent","content":null,"reasoning_content":"think"}`, &StreamingDelta{}, "delta: think"},
		{"token event", `{` + header + `,"kind":"TokenEvent","prompt_token_ids":[1,2],"response_token_ids":[3]}`, &TokenEvent{}, "token ids"},
		{"acp tool call", `{` + header + `,"kind":"ACPToolCallEvent","tool_call_id":"t1","title":"Read file","status":"completed","tool_kind":"read","raw_input":{"p":1},"content":[{"x":1}],"is_error":false}`,
			&ACPToolCall{ToolCallID: "t1", Title: "Read file", Status: "completed"}, "Read file (completed)"},
		{"server error", `{` + header + `,"kind":"ServerErrorEvent","code":"ValidationError","detail":"bad frame"}`,
			&ServerError{Code: "ValidationError", Detail: "bad frame"}, "ValidationError: bad frame"},
		{"unknown kind", `{` + header + `,"kind":"ExperimentalThingEvent","payload":[1]}`, &Unknown{}, "unknown kind ExperimentalThingEvent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode([]byte(tt.raw))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ev.Body, tt.body) {
				t.Errorf("body\n got %#v\nwant %#v", ev.Body, tt.body)
				if su, ok := ev.Body.(*StateUpdate); ok && su.Stats != nil {
					for k, m := range su.Stats.UsageToMetrics {
						t.Logf("stats %s: %+v", k, m)
					}
				}
			}
			if ev.Summary != tt.summary {
				t.Errorf("summary %q, want %q", ev.Summary, tt.summary)
			}
			if ev.ID != "e1" || ev.Source != "environment" || ev.Time.IsZero() {
				t.Errorf("header %+v", ev)
			}
			if _, err := ev.Detail(); err != nil {
				t.Errorf("Detail: %v", err)
			}
		})
	}
}

func TestDecodeSanitisesWhatItShows(t *testing.T) {
	raw := `{"kind":"ActionEvent","id":"e1","source":"\u001b]0;evil\u0007agent","summary":"\u001b[2J\u202Erun\u0007 it\nnow","tool_name":"term\u009b31minal","action":{"kind":"TerminalAction","command":"ls\r"}}`
	ev, err := Decode([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	a := ev.Body.(*Action)
	for _, s := range []string{ev.Source, ev.Summary, a.ToolName, a.Command} {
		checkSafe(t, s, false)
	}
	if ev.Source != "agent" || ev.Summary != "\uFFFDrun␇ it" || a.ToolName != "terminal" || a.Command != "ls␍" {
		t.Errorf("source %q summary %q tool %q command %q", ev.Source, ev.Summary, a.ToolName, a.Command)
	}
}
