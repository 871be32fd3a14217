package model

// The event kinds ohwatch knows, in one table: their names as sent, how the
// lean decoder reads them, their full payload types, how the screen groups
// and marks them, whether they are noise, whether the server stores them,
// whether they can become HEAD and which Python module defines them. The
// decoder, the reducer's kind counts and fold tree, the TUI's kind column
// and filter, serve, the recorder and export all read this table, so adding a kind means adding its name constant and its row here
// (and its body and payload types when it carries facts of its own).

// The kinds' names as they arrive in the `kind` field.
const (
	KindMessage             = "MessageEvent"
	KindAction              = "ActionEvent"
	KindObservation         = "ObservationEvent"
	KindUserReject          = "UserRejectObservation"
	KindAgentError          = "AgentErrorEvent"
	KindConversationError   = "ConversationErrorEvent"
	KindServerError         = "ServerErrorEvent"
	KindSystemPrompt        = "SystemPromptEvent"
	KindStateUpdate         = "ConversationStateUpdateEvent"
	KindCondensation        = "Condensation"
	KindCondensationRequest = "CondensationRequest"
	KindCondensationSummary = "CondensationSummaryEvent"
	KindHook                = "HookExecutionEvent"
	KindACPToolCall         = "ACPToolCallEvent"
	KindPause               = "PauseEvent"
	KindInterrupt           = "InterruptEvent"
	KindLLMCompletionLog    = "LLMCompletionLogEvent"
	KindStreamingDelta      = "StreamingDeltaEvent"
	KindToken               = "TokenEvent"

	// Kinds newer than SDK 1.43.1 (EventKind.Since says where each was
	// found).
	KindAskUserRequest         = "AskUserRequestEvent"
	KindAskUserResponse        = "AskUserResponseEvent"
	KindSecurityAnalysis       = "SecurityAnalysisEvent"
	KindWarning                = "WarningEvent"
	KindIterationLimit         = "ConversationIterationLimitEvent"
	KindSecurityAnalyzerConfig = "SecurityAnalyzerConfigurationEvent"
)

// The groups (short kinds) the event list's kind column shows and its kind
// filter offers. GroupUnknown holds every event without a kind of the table
// or whose fields do not fit its kind.
const (
	GroupMessage  = "Msg"
	GroupAction   = "Action"
	GroupObs      = "Obs"
	GroupReject   = "Reject"
	GroupError    = "Error"
	GroupSystem   = "System"
	GroupState    = "State"
	GroupCondense = "Condense"
	GroupHook     = "Hook"
	GroupACP      = "ACP"
	GroupPause    = "Pause"
	GroupLLMLog   = "LLMLog"
	GroupDelta    = "Delta"
	GroupToken    = "Token"
	GroupAsk      = "Ask"
	GroupRisk     = "Risk"
	GroupWarn     = "Warn"
	GroupConfig   = "Config"
	GroupUnknown  = "Unknown"
)

// Python modules of the SDK's event classes, for the qualified class names
// the agent-server's REST kind filter compares against.
const (
	moduleLLMConvertible = "openhands.sdk.event.llm_convertible."
	moduleEvent          = "openhands.sdk.event."
)

// EventKind describes one event kind.
type EventKind struct {
	// Name is the kind as sent ("ActionEvent").
	Name string
	// Group is the short kind the event list shows and the kind filter
	// offers ("Action"); several kinds may share one.
	Group string
	// Glyph is a one-cell symbol for the kind's group.
	Glyph string
	// Noise is structural noise, hidden by default in the event list and
	// left out of the transcript: state updates, deltas, token ids, LLM
	// logs. Every kind of a group agrees.
	Noise bool
	// LiveOnly is a kind the agent-server sends but never stores: it is
	// not returned over REST, not resent on resume and not recorded.
	LiveOnly bool
	// Artifact is a non-tree artifact (protocol §5): stored, but never
	// HEAD, so no event names it as its parent. Upstream 1.43.1 makes
	// every appended event HEAD but a ConversationStateUpdateEvent
	// (openhands-sdk conversation/state.py, ConversationState.append_event;
	// a real server's base_state.json names its ConversationErrorEvent as
	// leaf_event_id), so that is the only kind flagged.
	Artifact bool
	// Module is the Python module that defines the kind's class.
	Module string
	// Since is the upstream version that introduced the kind, with how
	// that was established, for the kinds newer than SDK 1.43.1 (the
	// version the real server kit runs); "" for the kinds 1.43.1 has.
	Since string

	// decode reads the lean body and summary (decode.go).
	decode func(r *leanReader, f *topFields) (Body, string)
	// detail decodes the full payload from the raw event (detail.go).
	detail func(raw []byte) (any, error)
	// is reports whether a lean body is this kind's.
	is func(Body) bool
}

// kinds is the table. Its order is the kind filter's order of groups (a
// group sits where its first kind does) and the reducer's counting order.
var kinds = [...]EventKind{
	{Name: KindMessage, Group: GroupMessage, Glyph: "✉", Module: moduleLLMConvertible + "message",
		decode: decodeMessage, detail: payload[MessageEvent], is: bodyIs[*Message]},
	{Name: KindAction, Group: GroupAction, Glyph: "⚙", Module: moduleLLMConvertible + "action",
		decode: decodeAction, detail: actionPayload, is: bodyIs[*Action]},
	{Name: KindObservation, Group: GroupObs, Glyph: "↳", Module: moduleLLMConvertible + "observation",
		decode: decodeObservation, detail: observationPayload, is: bodyIs[*Observation]},
	{Name: KindUserReject, Group: GroupReject, Glyph: "⊘", Module: moduleLLMConvertible + "observation",
		decode: decodeUserReject, detail: payload[UserRejectObservation], is: bodyIs[*UserReject]},
	{Name: KindAgentError, Group: GroupError, Glyph: "✗", Module: moduleLLMConvertible + "observation",
		decode: decodeAgentError, detail: payload[AgentErrorEvent], is: bodyIs[*AgentError]},
	{Name: KindConversationError, Group: GroupError, Glyph: "✗", Module: moduleEvent + "conversation_error",
		decode: decodeConversationError, detail: payload[ConversationErrorEvent], is: bodyIs[*ConversationError]},
	{Name: KindServerError, Group: GroupError, Glyph: "✗", LiveOnly: true, Module: "openhands.agent_server.models",
		decode: decodeServerError, detail: payload[ServerErrorEvent], is: bodyIs[*ServerError]},
	{Name: KindSystemPrompt, Group: GroupSystem, Glyph: "§", Module: moduleLLMConvertible + "system",
		decode: decodeSystemPrompt, detail: payload[SystemPromptEvent], is: bodyIs[*SystemPrompt]},
	{Name: KindStateUpdate, Group: GroupState, Glyph: "◇", Noise: true, Artifact: true, Module: moduleEvent + "conversation_state",
		decode: decodeStateUpdate, detail: payload[ConversationStateUpdateEvent], is: bodyIs[*StateUpdate]},
	{Name: KindCondensation, Group: GroupCondense, Glyph: "≡", Module: moduleEvent + "condenser",
		decode: decodeCondensation, detail: payload[CondensationEvent], is: bodyIs[*Condensation]},
	{Name: KindCondensationRequest, Group: GroupCondense, Glyph: "≡", Module: moduleEvent + "condenser",
		decode: decodeCondensationRequest, detail: payload[CondensationRequestEvent], is: bodyIs[*CondensationRequest]},
	{Name: KindCondensationSummary, Group: GroupCondense, Glyph: "≡", LiveOnly: true, Module: moduleEvent + "condenser",
		decode: decodeCondensationSummary, detail: payload[CondensationSummaryEvent], is: bodyIs[*CondensationSummary]},
	{Name: KindHook, Group: GroupHook, Glyph: "↪", Module: moduleEvent + "hook_execution",
		decode: decodeHook, detail: payload[HookExecutionEvent], is: bodyIs[*Hook]},
	{Name: KindACPToolCall, Group: GroupACP, Glyph: "⇄", Module: moduleEvent + "acp_tool_call",
		decode: decodeACPToolCall, detail: payload[ACPToolCallEvent], is: bodyIs[*ACPToolCall]},
	{Name: KindPause, Group: GroupPause, Glyph: "‖", Module: moduleEvent + "user_action",
		decode: decodePause, detail: payload[PauseEvent], is: bodyIs[*Pause]},
	{Name: KindInterrupt, Group: GroupPause, Glyph: "‖", Module: moduleEvent + "user_action",
		decode: decodeInterrupt, detail: payload[InterruptEvent], is: bodyIs[*Interrupt]},
	{Name: KindLLMCompletionLog, Group: GroupLLMLog, Glyph: "λ", Noise: true, Module: moduleEvent + "llm_completion_log",
		decode: decodeCompletionLog, detail: payload[LLMCompletionLogEvent], is: bodyIs[*LLMCompletionLog]},
	{Name: KindStreamingDelta, Group: GroupDelta, Glyph: "∆", Noise: true, LiveOnly: true, Module: moduleEvent + "streaming_delta",
		decode: decodeStreamingDelta, detail: payload[StreamingDeltaEvent], is: bodyIs[*StreamingDelta]},
	{Name: KindToken, Group: GroupToken, Glyph: "#", Noise: true, Module: moduleEvent + "token",
		decode: decodeTokenEvent, detail: payload[TokenIDsEvent], is: bodyIs[*TokenEvent]},

	// Newer than 1.43.1: none is in the v1.43.1 tag of upstream's history;
	// their files were read on upstream's main branch.
	{Name: KindAskUserRequest, Group: GroupAsk, Glyph: "¿", Module: moduleEvent + "ask_user",
		Since:  "after 1.43.1 (event/ask_user.py, not in the v1.43.1 tag)",
		decode: decodeAskUserRequest, detail: payload[AskUserRequestEvent], is: bodyIs[*AskUserRequest]},
	{Name: KindAskUserResponse, Group: GroupAsk, Glyph: "¿", Module: moduleEvent + "ask_user",
		Since:  "after 1.43.1 (event/ask_user.py, not in the v1.43.1 tag)",
		decode: decodeAskUserResponse, detail: payload[AskUserResponseEvent], is: bodyIs[*AskUserResponse]},
	{Name: KindSecurityAnalysis, Group: GroupRisk, Glyph: "△", Module: moduleEvent + "security",
		Since:  "after 1.43.1 (event/security.py, PR #5182, opened 2026-09-18)",
		decode: decodeSecurityAnalysis, detail: payload[SecurityAnalysisEvent], is: bodyIs[*SecurityAnalysis]},
	{Name: KindWarning, Group: GroupWarn, Glyph: "!", Module: moduleEvent + "warning",
		Since:  "no release up to 1.43.1 (event/warning.py, commit d85c8c0 of 2026-01-20, reverted the same day)",
		decode: decodeWarning, detail: payload[WarningEvent], is: bodyIs[*Warning]},
	{Name: KindIterationLimit, Group: GroupWarn, Glyph: "!", Module: moduleEvent + "conversation_iteration_limit",
		Since:  "no release up to 1.43.1 (event/conversation_iteration_limit.py, commit 792626f of 2026-04-07, issue #2406)",
		decode: decodeIterationLimit, detail: payload[ConversationIterationLimitEvent], is: bodyIs[*IterationLimit]},
	{Name: KindSecurityAnalyzerConfig, Group: GroupConfig, Glyph: "¤", Noise: true, Module: moduleEvent + "security_analyzer",
		Since:  "no release up to 1.43.1 (event/security_analyzer.py, added 2025-11-06 in 9c4a85a, removed 2025-11-11)",
		decode: decodeAnalyzerConfig, detail: payload[SecurityAnalyzerConfigurationEvent], is: bodyIs[*SecurityAnalyzerConfig]},
}

// NumKinds is the number of kinds in the table, so a reader can count per
// kind in a fixed array (indexed by KindIndex).
const NumKinds = len(kinds)

// groupUnknownGlyph marks the events of GroupUnknown.
const groupUnknownGlyph = "?"

// Kinds returns the table, in its order. It is shared: do not modify it.
func Kinds() []EventKind { return kinds[:] }

// kindIndex is each kind's position in the table, by name: a Go map built
// once from the rows, so adding a row (the way to add a kind) can never
// fail a start-up. A hand-made probing hash of the names was raced against
// it and did not pay on a figure a user feels: `go test -run '^$' -bench
// 'KindIndex$' ./model` looks up every name in 330-460 ns with the probing
// hash, 830-1780 ns with the map, some 10-30 ns a lookup, about 1% of
// reading an event (BenchmarkDecodeRace), within the noise of a 100k-event
// load.
var kindIndex = indexKinds(kinds[:])

// indexKinds maps each row's name to its position.
func indexKinds(rows []EventKind) map[string]int {
	m := make(map[string]int, len(rows))
	for i, k := range rows {
		m[k.Name] = i
	}
	return m
}

// KindIndex returns the position in Kinds of the kind called name, or -1.
// It never allocates.
func KindIndex(name string) int {
	if i, ok := kindIndex[name]; ok {
		return i
	}
	return -1
}

// KindNamed returns the kind called name, or nil for a name not in the
// table.
func KindNamed(name string) *EventKind {
	if i := KindIndex(name); i >= 0 {
		return &kinds[i]
	}
	return nil
}

// KindOf returns the kind of a decoded event: nil for an event whose kind
// is not in the table or whose fields did not fit it (an *Unknown body).
// It trusts that the name and the body agree, as Decode makes them, and
// costs a name lookup: the event list asks it of every event it scans.
func KindOf(ev *Event) *EventKind {
	switch ev.Body.(type) {
	case *Unknown, nil:
		return nil
	}
	if i := KindIndex(ev.Kind); i >= 0 {
		return &kinds[i]
	}
	// An event built by hand without its name: by body alone.
	for i := range kinds {
		if kinds[i].is(ev.Body) {
			return &kinds[i]
		}
	}
	return nil
}

// GroupOf returns the group an event is listed under: its kind's group, or
// GroupUnknown.
func GroupOf(ev *Event) string {
	if k := KindOf(ev); k != nil {
		return k.Group
	}
	return GroupUnknown
}

// groupInfo is what a group's kinds agree on.
type groupInfo struct {
	name, glyph string
	noise       bool
}

// groups lists the groups in the kind filter's order: the groups of the
// table in the order their first kinds appear, then GroupUnknown.
var groups = func() []groupInfo {
	var out []groupInfo
	for _, k := range kinds {
		if groupAt(out, k.Group) < 0 {
			out = append(out, groupInfo{k.Group, k.Glyph, k.Noise})
		}
	}
	return append(out, groupInfo{name: GroupUnknown, glyph: groupUnknownGlyph})
}()

// groupAt returns the position of the group called name in gs, or -1.
func groupAt(gs []groupInfo, name string) int {
	for i, g := range gs {
		if g.name == name {
			return i
		}
	}
	return -1
}

// Groups returns every group in the kind filter's order: the groups of the
// table in the order their first kinds appear, then GroupUnknown.
func Groups() []string {
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.name
	}
	return out
}

// noiseGroups are the groups of noise, fewer to compare than all groups.
var noiseGroups = func() []string {
	var out []string
	for _, g := range groups {
		if g.noise {
			out = append(out, g.name)
		}
	}
	return out
}()

// GroupIsNoise reports whether a group is structural noise (its kinds are).
// The kind filter asks it of every event it scans.
func GroupIsNoise(group string) bool {
	for _, g := range noiseGroups {
		if g == group {
			return true
		}
	}
	return false
}

// GroupGlyph returns a group's glyph, "" for a name that is not a group.
func GroupGlyph(group string) string {
	if i := groupAt(groups, group); i >= 0 {
		return groups[i].glyph
	}
	return ""
}

// Persisted reports whether the agent-server stores an event (and so
// returns it over REST, resends it on resume, and a recording keeps it):
// not the live-only kinds, nor full_state snapshots or any other frame a
// socket sent as it subscribed (StateUpdate.Subscribe). A malformed event
// of a live-only kind is live-only too.
func Persisted(ev Event) bool {
	if su, ok := ev.Body.(*StateUpdate); ok && (su.FullState || su.Subscribe) {
		return false
	}
	k := KindNamed(ev.Kind)
	if k == nil {
		k = KindOf(&ev)
	}
	return k == nil || !k.LiveOnly
}

// bodyIs reports whether b is a T.
func bodyIs[T Body](b Body) bool {
	_, ok := b.(T)
	return ok
}

// NestedKind returns the kind of an event's nested action or observation
// ("TerminalAction", "MCPToolObservation"), or "" for other events and for
// an action that could not be parsed.
func NestedKind(ev Event) string {
	switch b := ev.Body.(type) {
	case *Action:
		return b.ActionKind
	case *Observation:
		return b.ObservationKind
	}
	return ""
}

// KindLabel is the kind shown in lists and filters: the event kind, with the
// nested kind for actions and observations ("ActionEvent/TerminalAction").
func KindLabel(ev Event) string {
	if n := NestedKind(ev); n != "" {
		return ev.Kind + "/" + n
	}
	return ev.Kind
}

// IsUnknown reports whether an event's kind was not recognised or its
// fields did not fit it; the reason is "" for an unrecognised kind.
func IsUnknown(ev Event) (reason string, unknown bool) {
	if u, ok := ev.Body.(*Unknown); ok {
		return u.Reason, true
	}
	return "", false
}

// NumGroups is the number of groups (Groups), so a reader can keep
// something per group in a slice indexed by GroupIndex.
func NumGroups() int { return len(groups) }

// GroupIndex returns the position of a group in Groups, or -1 for a name
// that is not a group.
func GroupIndex(group string) int { return groupAt(groups, group) }

// groupIndexOfKind is GroupIndex of each kind's group, by KindIndex, so
// that placing an event in its group costs a kind lookup, not a scan.
var groupIndexOfKind = func() [NumKinds]int {
	var out [NumKinds]int
	for i := range kinds {
		out[i] = groupAt(groups, kinds[i].Group)
	}
	return out
}()

// GroupIndexOf returns the position in Groups of the group an event is
// listed under (GroupOf).
func GroupIndexOf(ev *Event) int {
	switch ev.Body.(type) {
	case *Unknown, nil:
		return len(groups) - 1 // GroupUnknown is last
	}
	if i := KindIndex(ev.Kind); i >= 0 {
		return groupIndexOfKind[i]
	}
	if k := KindOf(ev); k != nil {
		return groupAt(groups, k.Group)
	}
	return len(groups) - 1
}
