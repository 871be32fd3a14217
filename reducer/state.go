package reducer

import "time"

// StatusSource says where the current execution status came from.
type StatusSource string

// The sources of an execution status, from most to least authoritative.
const (
	SourceNone        StatusSource = ""
	SourceFullState   StatusSource = "full_state"
	SourceStateUpdate StatusSource = "state_update"
	SourceBaseState   StatusSource = "base_state"
	SourceInferred    StatusSource = "inferred"
)

// Transition is one change of execution status.
type Transition struct {
	Index  int // index of the event that caused it
	Time   time.Time
	From   string
	To     string
	Source StatusSource
}

// Usage is the metrics of one LLM usage id, or of all of them combined.
type Usage struct {
	UsageID string
	Model   string
	CostUSD float64
	// CostKnown is false when tokens were spent and every reported cost is
	// 0: the price is unknown, which is not the same as free.
	CostKnown     bool
	Prompt        int64
	Completion    int64
	CacheRead     int64
	CacheWrite    int64
	Reasoning     int64
	LLMCalls      int
	ContextUsed   int64 // per_turn_token of the last call
	ContextWindow int64
}

// Metrics is the combined usage and the usage per usage id (sorted by id).
type Metrics struct {
	Combined Usage
	ByUsage  []Usage
}

// Tasks is the task checklist as of an event.
type Tasks struct {
	Items []TaskItem
	// ChangedAt is the index of the event that last changed Items; -1 when
	// no task list has been seen.
	ChangedAt int
	// Tentative is a plan proposed by a TaskTrackerAction that has no
	// observation yet (for example while awaiting confirmation).
	Tentative   []TaskItem
	TentativeAt int // -1 when there is no tentative plan
}

// TaskItem is one checklist item.
type TaskItem struct {
	Title  string
	Notes  string
	Status string // todo | in_progress | done
}

// PendingAction is an action with no result yet (protocol §5).
type PendingAction struct {
	Index        int
	ID           string
	ToolName     string
	ToolCallID   string
	Summary      string
	SecurityRisk string // the LLM's own
	// AnalyzerRisk is the security analyzer's risk for the action (a
	// SecurityAnalysisEvent), which the confirmation policy reads and may
	// differ from SecurityRisk; "" when no analyzer reported it.
	AnalyzerRisk string
	Analyzer     string
}

// ErrorRef is one error: an AgentErrorEvent, a ConversationErrorEvent, or
// an observation with is_error.
type ErrorRef struct {
	Index int
	Kind  string
	Text  string
}
