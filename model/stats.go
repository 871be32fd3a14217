package model

// Stats is ConversationStats: one Metrics per LLM usage id ("default" or
// "agent" for the main LLM, "condenser", …). The legacy key
// service_to_metrics decodes here too.
type Stats struct {
	UsageToMetrics map[string]*Metrics
}

// Metrics is an LLM usage's metrics. Per-field `stats` updates carry the
// snapshot form (no lists); full_state, REST and base_state.json carry the
// lists too.
type Metrics struct {
	ModelName        string
	AccumulatedCost  float64
	MaxBudgetPerTask *float64
	Accumulated      TokenUsage
	Costs            []Cost
	Latencies        []Latency
	TokenUsages      []TokenUsage
}

// TokenUsage is one call's (or the accumulated) token usage.
type TokenUsage struct {
	Model         string
	Prompt        int64
	Completion    int64
	CacheRead     int64
	CacheWrite    int64
	Reasoning     int64
	ContextWindow int64
	PerTurn       int64 // prompt+completion of the last call: context in use
	ResponseID    string
}

// Cost is one priced LLM call; Timestamp is a unix float.
type Cost struct {
	Model     string
	Cost      float64
	Timestamp float64
}

// Latency is one LLM call's latency in seconds.
type Latency struct {
	Model      string
	Latency    float64
	ResponseID string
}

// BaseState is what ohwatch needs of base_state.json (or of a REST
// ConversationInfo, which has the same shape).
type BaseState struct {
	ID                 string // normalised conversation id
	Title              string
	ExecutionStatus    string
	ConfirmationPolicy string
	MaxIterations      int
	LeafEventID        string
	Stats              *Stats
	// Derived is true when ohwatch wrote this base state from the events
	// of a recording (DerivedKey), not a server: its status is what the
	// events say, not a confirmation of it.
	Derived bool
	Raw     []byte
}

// DerivedKey is the base_state.json key that marks a base state ohwatch
// derived from a recording's events because no server snapshot was
// current when the recording ended.
const DerivedKey = "ohwatch_derived"

// Execution statuses (protocol §3.1).
const (
	StatusIdle                   = "idle"
	StatusRunning                = "running"
	StatusPaused                 = "paused"
	StatusWaitingForConfirmation = "waiting_for_confirmation"
	StatusFinished               = "finished"
	StatusError                  = "error"
	StatusStuck                  = "stuck"
	StatusDeleting               = "deleting"
)
