package reducer

// numKnownKinds is the number of kinds counted in a fixed array.
const numKnownKinds = 19

// knownKinds are the event kinds counted in a fixed array, so counting
// them never allocates; any other kind goes to a small shared table. Their
// positions match kindIndex.
func knownKinds() [numKnownKinds]string {
	return [numKnownKinds]string{
		"MessageEvent",
		"ActionEvent",
		"ObservationEvent",
		"UserRejectObservation",
		"AgentErrorEvent",
		"SystemPromptEvent",
		"ConversationStateUpdateEvent",
		"ConversationErrorEvent",
		"Condensation",
		"CondensationRequest",
		"CondensationSummaryEvent",
		"PauseEvent",
		"InterruptEvent",
		"HookExecutionEvent",
		"LLMCompletionLogEvent",
		"StreamingDeltaEvent",
		"TokenEvent",
		"ACPToolCallEvent",
		"ServerErrorEvent",
	}
}

// kindCounts counts the events of each of knownKinds.
type kindCounts [numKnownKinds]int32

// kindIndex returns kind's position in knownKinds, or -1.
func kindIndex(kind string) int {
	switch kind {
	case "MessageEvent":
		return 0
	case "ActionEvent":
		return 1
	case "ObservationEvent":
		return 2
	case "UserRejectObservation":
		return 3
	case "AgentErrorEvent":
		return 4
	case "SystemPromptEvent":
		return 5
	case "ConversationStateUpdateEvent":
		return 6
	case "ConversationErrorEvent":
		return 7
	case "Condensation":
		return 8
	case "CondensationRequest":
		return 9
	case "CondensationSummaryEvent":
		return 10
	case "PauseEvent":
		return 11
	case "InterruptEvent":
		return 12
	case "HookExecutionEvent":
		return 13
	case "LLMCompletionLogEvent":
		return 14
	case "StreamingDeltaEvent":
		return 15
	case "TokenEvent":
		return 16
	case "ACPToolCallEvent":
		return 17
	case "ServerErrorEvent":
		return 18
	}
	return -1
}

// countKind counts one event of kind.
func countKind(c kindCounts, other kindTable, kind string) (kindCounts, kindTable) {
	if i := kindIndex(kind); i >= 0 {
		c[i]++
		return c, other
	}
	return c, other.add(kind)
}

// toMap returns the counts of every kind seen, known and other.
func (c kindCounts) toMap(other kindTable) map[string]int {
	m := make(map[string]int, len(other)+8)
	names := knownKinds()
	for i, n := range c {
		if n > 0 {
			m[names[i]] = int(n)
		}
	}
	return other.toMap(m)
}
