package model

import "encoding/json"

// The full payloads of the event kinds, as Event.Detail returns them, named
// after their upstream classes. Where a lean body already took the class
// name (Condensation, CondensationRequest, TokenEvent) the payload is named
// …Event or …Detail instead. The header (id, timestamp, source, parent_id)
// stays on Event.

// MessageEvent is a chat message from the user, the agent or the
// environment.
type MessageEvent struct {
	LLMMessage      LLMMessage    `json:"llm_message"`
	LLMResponseID   string        `json:"llm_response_id,omitempty"`
	ActivatedSkills []string      `json:"activated_skills,omitempty"`
	ExtendedContent []Content     `json:"extended_content,omitempty"`
	Sender          string        `json:"sender,omitempty"`
	CriticResult    *CriticResult `json:"critic_result,omitempty"`
}

// Text is the message's text (its content list joined).
func (m *MessageEvent) Text() string { return ContentText(m.LLMMessage.Content) }

// ActionEvent is one tool call. Action holds the typed action (a
// *TerminalAction, *FileEditorAction, …, or *GenericAction for a kind
// without a type here), nil when the call could not be parsed.
type ActionEvent struct {
	Thought                []Content        `json:"thought,omitempty"`
	ReasoningContent       string           `json:"reasoning_content,omitempty"`
	ThinkingBlocks         []ThinkingBlock  `json:"thinking_blocks,omitempty"`
	ResponsesReasoningItem *ReasoningItem   `json:"responses_reasoning_item,omitempty"`
	RawAction              json.RawMessage  `json:"action,omitempty"`
	ToolName               string           `json:"tool_name"`
	ToolCallID             string           `json:"tool_call_id"`
	ToolCall               *MessageToolCall `json:"tool_call,omitempty"`
	LLMResponseID          string           `json:"llm_response_id,omitempty"`
	SecurityRisk           string           `json:"security_risk,omitempty"`
	Summary                string           `json:"summary,omitempty"`
	CriticResult           *CriticResult    `json:"critic_result,omitempty"`

	// ActionKind is the nested action kind; Action its typed form.
	ActionKind string `json:"-"`
	Action     any    `json:"-"`
}

// ThoughtText is the assistant text that came with the call.
func (a *ActionEvent) ThoughtText() string { return ContentText(a.Thought) }

// ObservationEvent is a tool result. Observation holds the typed result
// (*TerminalObservation, …, or *GenericObservation).
type ObservationEvent struct {
	ToolName        string          `json:"tool_name"`
	ToolCallID      string          `json:"tool_call_id"`
	ActionID        string          `json:"action_id"`
	RawObservation  json.RawMessage `json:"observation"`
	ExtendedContent []Content       `json:"extended_content,omitempty"`

	ObservationKind string `json:"-"`
	Observation     any    `json:"-"`
}

// Output is the text of the observation's content list.
func (o *ObservationEvent) Output() string {
	if r, ok := o.Observation.(interface{ Result() *ObservationBase }); ok {
		return ContentText(r.Result().Content)
	}
	return ""
}

// UserRejectObservation is a rejected action (confirmation mode or a
// PreToolUse hook).
type UserRejectObservation struct {
	ToolName        string `json:"tool_name"`
	ToolCallID      string `json:"tool_call_id"`
	ActionID        string `json:"action_id"`
	RejectionReason string `json:"rejection_reason"`
	RejectionSource string `json:"rejection_source,omitempty"`
}

// AgentErrorEvent is a scaffold error in place of a tool result.
type AgentErrorEvent struct {
	ToolName       string               `json:"tool_name"`
	ToolCallID     string               `json:"tool_call_id"`
	Error          string               `json:"error"`
	Classification *ErrorClassification `json:"classification,omitempty"`
}

// SystemPromptEvent is the system prompt and the tools offered.
type SystemPromptEvent struct {
	SystemPrompt   Content          `json:"system_prompt"`
	DynamicContext *Content         `json:"dynamic_context,omitempty"`
	Tools          []ToolDefinition `json:"tools"`
}

// CondensationSummaryEvent is a summary synthesised from a Condensation.
type CondensationSummaryEvent struct {
	Summary string `json:"summary"`
}

// ConversationStateUpdateEvent is a state update; Value is untyped and read
// by Key (see StateUpdate for the decoded facts).
type ConversationStateUpdateEvent struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// ConversationErrorEvent is a conversation-level failure.
type ConversationErrorEvent struct {
	Code           string               `json:"code"`
	Detail         string               `json:"detail"`
	Classification *ErrorClassification `json:"classification,omitempty"`
}

// CondensationEvent is the payload of a Condensation event.
type CondensationEvent struct {
	ForgottenEventIDs []string `json:"forgotten_event_ids"`
	Summary           string   `json:"summary,omitempty"`
	SummaryOffset     *int     `json:"summary_offset,omitempty"`
	LLMResponseID     string   `json:"llm_response_id,omitempty"`
}

// CondensationRequestEvent is the (empty) payload of a CondensationRequest.
type CondensationRequestEvent struct{}

// PauseEvent is the (empty) payload of a pause.
type PauseEvent struct{}

// InterruptEvent is the (empty) payload of an interrupt.
type InterruptEvent struct{}

// HookExecutionEvent is one hook run.
type HookExecutionEvent struct {
	HookEventType     string          `json:"hook_event_type"`
	HookCommand       string          `json:"hook_command"`
	ToolName          string          `json:"tool_name,omitempty"`
	Success           bool            `json:"success"`
	Blocked           bool            `json:"blocked"`
	ExitCode          int             `json:"exit_code"`
	Stdout            string          `json:"stdout,omitempty"`
	Stderr            string          `json:"stderr,omitempty"`
	Reason            string          `json:"reason,omitempty"`
	AdditionalContext string          `json:"additional_context,omitempty"`
	Error             string          `json:"error,omitempty"`
	ActionID          string          `json:"action_id,omitempty"`
	MessageID         string          `json:"message_id,omitempty"`
	HookInput         json.RawMessage `json:"hook_input,omitempty"`
}

// LLMCompletionLogEvent is one logged LLM call; LogData is itself a JSON
// string (see LogData).
type LLMCompletionLogEvent struct {
	Filename  string `json:"filename"`
	LogData   string `json:"log_data"`
	ModelName string `json:"model_name"`
	UsageID   string `json:"usage_id"`
}

// StreamingDeltaEvent is a streamed token delta.
type StreamingDeltaEvent struct {
	Content          string `json:"content,omitempty"`
	ReasoningContent string `json:"reasoning_content,omitempty"`
}

// TokenIDsEvent is the payload of a TokenEvent (vLLM token ids).
type TokenIDsEvent struct {
	PromptTokenIDs   []int `json:"prompt_token_ids"`
	ResponseTokenIDs []int `json:"response_token_ids"`
}

// ACPToolCallEvent is a tool call run by an external ACP agent.
type ACPToolCallEvent struct {
	ToolCallID string            `json:"tool_call_id"`
	Title      string            `json:"title"`
	Status     string            `json:"status,omitempty"`
	ToolKind   string            `json:"tool_kind,omitempty"`
	RawInput   json.RawMessage   `json:"raw_input,omitempty"`
	RawOutput  json.RawMessage   `json:"raw_output,omitempty"`
	Content    []json.RawMessage `json:"content,omitempty"`
	IsError    bool              `json:"is_error"`
}

// ServerErrorEvent is a WebSocket error frame.
type ServerErrorEvent struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// UnknownEvent is the payload of an event kind without a type here: its
// kind and its raw JSON.
type UnknownEvent struct {
	Kind string
	Raw  json.RawMessage
}

// AskUserRequestEvent is the agent's structured questions to the user
// (upstream event/ask_user.py, newer than SDK 1.43.1).
type AskUserRequestEvent struct {
	RequestID      string         `json:"request_id"`
	Questions      []QuestionInfo `json:"questions"`
	ActionID       string         `json:"action_id"`
	ToolCallID     string         `json:"tool_call_id"`
	ToolName       string         `json:"tool_name,omitempty"`
	TimeoutSeconds *float64       `json:"timeout_seconds,omitempty"`
}

// QuestionInfo is one question of an AskUserRequestEvent (upstream
// event/ask_user_schema.py).
type QuestionInfo struct {
	ID          string               `json:"id"`
	Question    string               `json:"question"`
	Options     []QuestionOptionInfo `json:"options,omitempty"`
	MultiSelect bool                 `json:"multi_select,omitempty"`
}

// QuestionOptionInfo is one option of a QuestionInfo.
type QuestionOptionInfo struct {
	ID          string  `json:"id"`
	Label       string  `json:"label"`
	Description *string `json:"description"`
}

// AskUserResponseEvent is the answer to one AskUserRequestEvent. Answers
// maps a question id to its selections (one object in the first release,
// a list since).
type AskUserResponseEvent struct {
	RequestID string                     `json:"request_id"`
	Action    string                     `json:"action"`
	Answers   map[string]json.RawMessage `json:"answers,omitempty"`
}

// SecurityAnalysisEvent is the security analyzer's risk per action of a
// batch (upstream event/security.py, PR #5182).
type SecurityAnalysisEvent struct {
	Analyzer string                     `json:"analyzer"`
	Policy   string                     `json:"policy"`
	Risks    map[string]string          `json:"risks"`
	Details  map[string]json.RawMessage `json:"details,omitempty"`
}

// WarningEvent is a non-fatal issue shown to the user (upstream
// event/warning.py).
type WarningEvent struct {
	Message string `json:"message"`
}

// ConversationIterationLimitEvent says the run spent its iteration budget
// (upstream event/conversation_iteration_limit.py).
type ConversationIterationLimitEvent struct {
	Iteration     int    `json:"iteration"`
	MaxIterations int    `json:"max_iterations"`
	Detail        string `json:"detail"`
}

// SecurityAnalyzerConfigurationEvent names the configured analyzer
// (upstream event/security_analyzer.py).
type SecurityAnalyzerConfigurationEvent struct {
	AnalyzerType *string `json:"analyzer_type"`
}
