package serve

import "strings"

// kindModules maps each event kind to the Python module that defines it:
// the REST kind filter compares against the fully-qualified class name
// (protocol §9.3), so a bare "ActionEvent" matches nothing.
var kindModules = map[string]string{
	"MessageEvent":                 "openhands.sdk.event.llm_convertible.message",
	"ActionEvent":                  "openhands.sdk.event.llm_convertible.action",
	"ObservationEvent":             "openhands.sdk.event.llm_convertible.observation",
	"UserRejectObservation":        "openhands.sdk.event.llm_convertible.observation",
	"AgentErrorEvent":              "openhands.sdk.event.llm_convertible.observation",
	"SystemPromptEvent":            "openhands.sdk.event.llm_convertible.system",
	"CondensationSummaryEvent":     "openhands.sdk.event.condenser",
	"Condensation":                 "openhands.sdk.event.condenser",
	"CondensationRequest":          "openhands.sdk.event.condenser",
	"ConversationStateUpdateEvent": "openhands.sdk.event.conversation_state",
	"ConversationErrorEvent":       "openhands.sdk.event.conversation_error",
	"PauseEvent":                   "openhands.sdk.event.user_action",
	"InterruptEvent":               "openhands.sdk.event.user_action",
	"HookExecutionEvent":           "openhands.sdk.event.hook_execution",
	"LLMCompletionLogEvent":        "openhands.sdk.event.llm_completion_log",
	"StreamingDeltaEvent":          "openhands.sdk.event.streaming_delta",
	"TokenEvent":                   "openhands.sdk.event.token",
	"ACPToolCallEvent":             "openhands.sdk.event.acp_tool_call",
	"ServerErrorEvent":             "openhands.agent_server.models",
}

// QualifiedKind returns the fully-qualified class name the REST kind filter
// expects for an event kind ("ActionEvent" →
// "openhands.sdk.event.llm_convertible.action.ActionEvent"), or "" for a
// kind whose module is not known.
func QualifiedKind(kind string) string {
	if mod, ok := kindModules[kind]; ok {
		return mod + "." + kind
	}
	return ""
}

// kindMatches reports whether an event of kind matches the filter. Known
// kinds need their exact qualified name; a kind whose module is unknown
// matches any dotted name ending in it.
func kindMatches(kind, filter string) bool {
	if q := QualifiedKind(kind); q != "" {
		return q == filter
	}
	i := strings.LastIndexByte(filter, '.')
	return i > 0 && kind != "" && filter[i+1:] == kind
}
