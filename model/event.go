package model

import "time"

// Event is one conversation event as the log keeps it.
type Event struct {
	// Kind is the top-level `kind` as sent ("ActionEvent"); "" when absent.
	Kind string
	// ID is the event id as sent (uuid4 with dashes, or "<id>-summary").
	ID string
	// Time is the parsed `timestamp`; zero when absent or unparseable.
	Time time.Time
	// Source is agent, user, environment or hook (sanitised).
	Source string
	// ParentID is the previous HEAD (since SDK v1.31), "" when absent.
	ParentID string
	// Raw is the event exactly as received; never modified.
	Raw []byte
	// Summary is the sanitised one-line description used by list rows and
	// headless lines.
	Summary string
	// Body holds the kind-specific facts; *Unknown for kinds not recognised
	// and for objects whose fields do not fit their kind.
	Body Body
}

// Body is implemented by the lean per-kind structs below.
type Body interface{ isBody() }

// Task is one task-tracker item (protocol §6).
type Task struct {
	Title  string `json:"title"`
	Notes  string `json:"notes"`
	Status string `json:"status"` // todo | in_progress | done
}

// Action is the lean body of an ActionEvent: one tool call from the LLM.
type Action struct {
	// ActionKind is the nested action.kind ("TerminalAction", "MCPToolAction",
	// "ClientAction_<tool>"); "" when the action is null or absent (the call
	// could not be parsed; an AgentErrorEvent follows).
	ActionKind    string
	ToolName      string
	ToolCallID    string
	LLMResponseID string
	SecurityRisk  string // UNKNOWN | LOW | MEDIUM | HIGH ("UNKNOWN" when absent)
	// Command is the terminal command (first line, sanitised), "" otherwise.
	Command string
	// TaskCommand and Plan are set for TaskTrackerAction: a `plan` proposes
	// a whole new list (shown as tentative until its observation arrives).
	TaskCommand string
	Plan        []Task
}

// Observation is the lean body of an ObservationEvent: a tool result.
type Observation struct {
	ObservationKind string // nested observation.kind ("TerminalObservation")
	ToolName        string
	ToolCallID      string
	ActionID        string
	IsError         bool
	// ExitCode is set for terminal observations that report one (-1 means a
	// soft timeout: the command is still running).
	ExitCode *int
	// TaskList is the full checklist echoed by a TaskTrackerObservation;
	// HasTaskList tells an empty list from an absent one.
	TaskCommand string
	TaskList    []Task
	HasTaskList bool
}

// UserReject is the lean body of a UserRejectObservation.
type UserReject struct {
	ToolName        string
	ToolCallID      string
	ActionID        string
	Reason          string // sanitised, one line
	RejectionSource string // user | hook
}

// AgentError is the lean body of an AgentErrorEvent; it takes the place of a
// tool result and is matched to its action by ToolCallID.
type AgentError struct {
	ToolName       string
	ToolCallID     string
	Error          string // sanitised, first line, capped
	Classification string // classification.kind
}

// Message is the lean body of a MessageEvent.
type Message struct {
	Role          string // user | assistant | system | tool
	LLMResponseID string
	HasToolCalls  bool
	Sender        string
}

// SystemPrompt is the lean body of a SystemPromptEvent.
type SystemPrompt struct {
	Tools []string // tool titles
}

// StateUpdate is the lean body of a ConversationStateUpdateEvent, either a
// per-field update (Key is the field) or a full_state snapshot.
type StateUpdate struct {
	Key       string
	FullState bool
	// Subscribe marks the first frame a socket sends when it subscribes:
	// the server's state at that moment (a full_state snapshot, or a
	// per-field execution_status=idle while the conversation's service is
	// not active). Like a snapshot it is live-only, never in the server's
	// event log, so a recording does not hold it (Persisted). Only the
	// client that read the frame knows; decoding leaves it false.
	Subscribe bool
	// ExecutionStatus is set when Key is execution_status (or the legacy
	// agent_status), or when a full_state snapshot carries one.
	ExecutionStatus string
	// Stats is set when Key is stats, or from a snapshot's stats.
	Stats *Stats
	// ConfirmationPolicy is the policy kind ("NeverConfirm", "AlwaysConfirm",
	// "ConfirmRisky") when Key is confirmation_policy or a snapshot has one.
	ConfirmationPolicy string
	// LeafEventID is HEAD as a full_state snapshot states it (since SDK
	// v1.31); no per-field update carries it.
	LeafEventID string
}

// ConversationError is the lean body of a ConversationErrorEvent.
type ConversationError struct {
	Code   string
	Detail string // sanitised, first line, capped
}

// Condensation is the lean body of a Condensation: the events it forgets
// stay in the log and are only hidden from the LLM's view.
type Condensation struct {
	ForgottenIDs  []string
	LLMResponseID string
}

// Hook is the lean body of a HookExecutionEvent.
type Hook struct {
	HookEventType string
	ToolName      string
	Success       bool
	Blocked       bool
	ExitCode      int
}

// ACPToolCall is the lean body of an ACPToolCallEvent (a tool call run by an
// external ACP agent; the second event of a call replaces the first).
type ACPToolCall struct {
	ToolCallID string
	Title      string
	Status     string
	IsError    bool
}

// ServerError is the lean body of a ServerErrorEvent (a WebSocket-only
// error frame).
type ServerError struct {
	Code   string
	Detail string
}

// LLMCompletionLog is the lean body of an LLMCompletionLogEvent.
type LLMCompletionLog struct {
	ModelName string
	UsageID   string
}

// Marker bodies for kinds that carry nothing the reducer needs.
type (
	CondensationRequest struct{}
	CondensationSummary struct{}
	Pause               struct{}
	Interrupt           struct{}
	StreamingDelta      struct{}
	TokenEvent          struct{}
)

// Unknown is the body of an event whose kind is not recognised (Reason is
// "") or whose fields do not fit its kind (Reason says what is wrong). The
// event is still kept, counted and shown.
type Unknown struct {
	Reason string
}

func (*Action) isBody()              {}
func (*Observation) isBody()         {}
func (*UserReject) isBody()          {}
func (*AgentError) isBody()          {}
func (*Message) isBody()             {}
func (*SystemPrompt) isBody()        {}
func (*StateUpdate) isBody()         {}
func (*ConversationError) isBody()   {}
func (*Condensation) isBody()        {}
func (*Hook) isBody()                {}
func (*ACPToolCall) isBody()         {}
func (*ServerError) isBody()         {}
func (*LLMCompletionLog) isBody()    {}
func (*CondensationRequest) isBody() {}
func (*CondensationSummary) isBody() {}
func (*Pause) isBody()               {}
func (*Interrupt) isBody()           {}
func (*StreamingDelta) isBody()      {}
func (*TokenEvent) isBody()          {}
func (*Unknown) isBody()             {}
