package model

import (
	"errors"
	"fmt"
	"sync"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// topFields holds the value spans of the top-level members Decode reads;
// every other member is validated and stepped over.
type topFields struct {
	kind, id, timestamp, source, parentID []byte

	llmMessage, llmResponseID, sender                   []byte
	action, toolName, toolCallID, securityRisk, summary []byte
	observation, actionID                               []byte
	rejectionReason, rejectionSource                    []byte
	errorText, classification                           []byte
	tools                                               []byte
	key, value                                          []byte
	code, detail                                        []byte
	forgottenEventIDs                                   []byte
	hookEventType, success, blocked, exitCode, reason   []byte
	title, status, isError                              []byte
	modelName, usageID                                  []byte
	content, reasoningContent                           []byte
	requestID, questions, timeoutSeconds, answers       []byte
	message, iteration, maxIterations                   []byte
	analyzer, policy, risks, analyzerType               []byte

	// nestedAction and nestedObservation hold the members of the action
	// and observation objects, read while validating them.
	nestedAction, nestedObservation actionFields

	// stats is value read as stats while it was validated (fastStats), nil
	// when it was not; generalStats turns that off.
	stats        *Stats
	generalStats bool
}

// nestedFields returns where to keep the members of the nested action or
// observation object, nil for other keys.
func (f *topFields) nestedFields(key []byte) *actionFields {
	switch string(key) {
	case "action":
		f.nestedAction = actionFields{}
		return &f.nestedAction
	case "observation":
		f.nestedObservation = actionFields{}
		return &f.nestedObservation
	}
	return nil
}

// set stores the span of one member; unknown keys are ignored.
func (f *topFields) set(key, val []byte) {
	switch string(key) {
	case "kind":
		f.kind = val
	case "id":
		f.id = val
	case "timestamp":
		f.timestamp = val
	case "source":
		f.source = val
	case "parent_id":
		f.parentID = val
	case "llm_message":
		f.llmMessage = val
	case "llm_response_id":
		f.llmResponseID = val
	case "sender":
		f.sender = val
	case "action":
		f.action = val
	case "tool_name":
		f.toolName = val
	case "tool_call_id":
		f.toolCallID = val
	case "security_risk":
		f.securityRisk = val
	case "summary":
		f.summary = val
	case "observation":
		f.observation = val
	case "action_id":
		f.actionID = val
	case "rejection_reason":
		f.rejectionReason = val
	case "rejection_source":
		f.rejectionSource = val
	case "error":
		f.errorText = val
	case "classification":
		f.classification = val
	case "tools":
		f.tools = val
	case "key":
		f.key = val
	case "value":
		f.value = val
	case "code":
		f.code = val
	case "detail":
		f.detail = val
	case "forgotten_event_ids":
		f.forgottenEventIDs = val
	case "hook_event_type":
		f.hookEventType = val
	case "success":
		f.success = val
	case "blocked":
		f.blocked = val
	case "exit_code":
		f.exitCode = val
	case "reason":
		f.reason = val
	case "title":
		f.title = val
	case "status":
		f.status = val
	case "is_error":
		f.isError = val
	case "model_name":
		f.modelName = val
	case "usage_id":
		f.usageID = val
	case "service_id": // the legacy name of usage_id
		if f.usageID == nil {
			f.usageID = val
		}
	case "content":
		f.content = val
	case "reasoning_content":
		f.reasoningContent = val
	case "request_id":
		f.requestID = val
	case "questions":
		f.questions = val
	case "timeout_seconds":
		f.timeoutSeconds = val
	case "answers":
		f.answers = val
	case "message":
		f.message = val
	case "iteration":
		f.iteration = val
	case "max_iterations":
		f.maxIterations = val
	case "analyzer":
		f.analyzer = val
	case "policy":
		f.policy = val
	case "risks":
		f.risks = val
	case "analyzer_type":
		f.analyzerType = val
	}
}

// ErrNotObject is wrapped by every Decode error: the input was not one
// JSON object.
var ErrNotObject = errors.New("not a JSON object")

// Decode reads one event. It takes ownership of raw, which becomes the
// event's Raw unchanged and uncopied; the caller must not modify raw
// afterwards, since the event's ids and names share its memory. It fails only when raw is not a single
// JSON object (empty, truncated, invalid, an array or scalar, binary
// garbage, nested deeper than 1000 levels). Any object decodes: one of an
// unknown kind gets an *Unknown body with an empty Reason, one whose fields
// have the wrong types an *Unknown body whose Reason says what is wrong; in
// both cases the header is kept as far as it could be read.
//
// Decode reads only the small fields the reducer and the event list need
// and steps over the big ones (outputs, file contents, prompts); the full
// payload is decoded on demand by Event.Detail.
//
// It is written by hand over jsonx's scanner because that is what a
// 100k-event load is made of: on the same generated events
// (`go test -run '^$' -bench DecodeRace ./model`) Decode in full reads
// 310-540 MB/s, while decoders reading only the envelope and first fields
// read 40-45 MB/s with encoding/json, 165-250 MB/s with encoding/json/v2
// (GOEXPERIMENT=jsonv2) and 30-70 MB/s with gjson: at least 2x, up to 10x,
// on the decoding that is most of `state` of 100k events.
func Decode(raw []byte) (Event, error) { return decode(raw, false) }

// Redecode decodes again bytes that Decode accepted before (a log keeps
// the raw bytes and rebuilds the event when asked for it): it gives what
// Decode gave, but for Time, which it leaves zero for the caller to set
// from what it kept. It validates nothing: give it only bytes Decode
// accepted, unchanged since.
func Redecode(raw []byte) (Event, error) { return decode(raw, true) }

// decodeScratch is what decode reads an event's members into. The kinds'
// decoders are called through the kind table, so escape analysis puts it
// on the heap: pooled, it is not 2 KB of garbage per event. Nothing
// decoded keeps a pointer to it (the spans it holds point into raw).
type decodeScratch struct {
	f topFields
	r leanReader
}

var scratchPool = sync.Pool{New: func() any { return new(decodeScratch) }}

// decode is Decode, or Redecode when trusted.
func decode(raw []byte, trusted bool) (Event, error) {
	return decodeWith(raw, trusted, true)
}

// decodeWith is decode, reading stats values the general way only when
// fastStats is false (for the test that holds the two ways equal).
func decodeWith(raw []byte, trusted, fastStats bool) (Event, error) {
	start := jsonx.SkipWS(raw, 0)
	if start >= len(raw) {
		return Event{}, fmt.Errorf("%w: empty input", ErrNotObject)
	}
	if raw[start] != '{' {
		if end, err := jsonx.ValueEnd(raw, start, 0); err == nil && jsonx.SkipWS(raw, end) == len(raw) {
			return Event{}, fmt.Errorf("%w: got a JSON %s", ErrNotObject, jsonx.Type(raw[start:]))
		}
		return Event{}, fmt.Errorf("%w: %v", ErrNotObject, jsonx.SyntaxError(raw, start, "looking for '{'"))
	}
	sc := scratchPool.Get().(*decodeScratch)
	defer func() {
		*sc = decodeScratch{} // it must not keep raw alive in the pool
		scratchPool.Put(sc)
	}()
	f, r := &sc.f, &sc.r
	f.generalStats = !fastStats
	end, err := readTopObject(raw, start, f, trusted)
	if err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrNotObject, err)
	}
	if rest := jsonx.SkipWS(raw, end); rest < len(raw) {
		return Event{}, fmt.Errorf("%w: %v", ErrNotObject, jsonx.SyntaxError(raw, rest, "after the end of the object"))
	}
	ev := Event{Raw: raw}
	ev.Kind = sanitize.Line(r.str(f.kind, "kind"))
	k := KindIndex(ev.Kind)
	if k >= 0 {
		ev.Kind = kinds[k].Name // one shared string, not an alias of raw
	}
	ev.ID = r.str(f.id, "id")
	if ts := r.str(f.timestamp, "timestamp"); ts != "" && !trusted {
		ev.Time, _ = ParseTime(ts)
	}
	ev.Source = sanitize.Line(r.str(f.source, "source"))
	ev.ParentID = r.str(f.parentID, "parent_id")
	if r.reason == "" {
		ev.Body, ev.Summary = decodeBody(r, k, ev.Kind, f)
	}
	if r.reason != "" {
		ev.Body, ev.Summary = &Unknown{Reason: r.reason}, malformedSummary(ev.Kind, r.reason)
	}
	return ev, nil
}

// malformedSummary is the summary of an event whose fields do not fit its
// kind.
func malformedSummary(kind, reason string) string {
	if kind == "" {
		kind = "event"
	}
	return capLine("malformed " + kind + ": " + reason)
}

// decodeBody builds the lean body and the summary of one event by its kind,
// through the kind's row of the table (at index k, -1 for a kind not in
// it).
func decodeBody(r *leanReader, k int, kind string, f *topFields) (Body, string) {
	if k >= 0 {
		return kinds[k].decode(r, f)
	}
	if kind == "" {
		return &Unknown{}, "event without a kind"
	}
	return &Unknown{}, capLine("unknown kind " + kind)
}

// The lean decoders of the kinds whose bodies hold a field or two; the
// bigger ones live in leanaction.go, leanmisc.go and leanstate.go.

func decodeConversationError(r *leanReader, f *topFields) (Body, string) {
	b := &ConversationError{Code: sanitize.Line(r.str(f.code, "code")), Detail: r.line(f.detail, "detail")}
	return b, joinSummary(b.Code, b.Detail)
}

func decodeServerError(r *leanReader, f *topFields) (Body, string) {
	b := &ServerError{Code: sanitize.Line(r.str(f.code, "code")), Detail: r.line(f.detail, "detail")}
	return b, joinSummary(b.Code, b.Detail)
}

func decodeCondensation(r *leanReader, f *topFields) (Body, string) {
	b := &Condensation{ForgottenIDs: r.stringList(f.forgottenEventIDs, "forgotten_event_ids"), LLMResponseID: r.str(f.llmResponseID, "llm_response_id")}
	return b, condensationSummary(b, r.line(f.summary, "summary"))
}

func decodeCondensationRequest(*leanReader, *topFields) (Body, string) {
	return &CondensationRequest{}, "condensation requested"
}

func decodeCondensationSummary(r *leanReader, f *topFields) (Body, string) {
	return &CondensationSummary{}, capLine("summary: " + r.line(f.summary, "summary"))
}

func decodePause(*leanReader, *topFields) (Body, string) { return &Pause{}, "paused by the user" }

func decodeInterrupt(*leanReader, *topFields) (Body, string) {
	return &Interrupt{}, "interrupted by the user"
}

func decodeCompletionLog(r *leanReader, f *topFields) (Body, string) {
	b := &LLMCompletionLog{ModelName: sanitize.Line(r.str(f.modelName, "model_name")), UsageID: sanitize.Line(r.str(f.usageID, "usage_id"))}
	return b, completionLogSummary(b)
}

func decodeStreamingDelta(r *leanReader, f *topFields) (Body, string) {
	text := r.line(f.content, "content")
	if text == "" {
		text = r.line(f.reasoningContent, "reasoning_content")
	}
	return &StreamingDelta{}, capLine("delta: " + text)
}

func decodeTokenEvent(*leanReader, *topFields) (Body, string) { return &TokenEvent{}, "token ids" }

// joinSummary joins a code or label and a text as "code: text".
func joinSummary(label, text string) string {
	switch {
	case label == "":
		return capLine(text)
	case text == "":
		return label
	}
	return capLine(label + ": " + text)
}
