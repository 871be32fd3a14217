package serve

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"ohwatch/model"
)

// timestampLayout is the SDK's `datetime.now().isoformat()` form: naive,
// with microseconds.
const timestampLayout = "2006-01-02T15:04:05.000000"

// formatTimestamp renders t the way the SDK stamps events. Recorded
// timestamps are naive; they are read and written as UTC so that a made-up
// event sorts among the recorded ones.
func formatTimestamp(t time.Time) string {
	return t.UTC().Format(timestampLayout)
}

// newUUID returns a random version 4 UUID with dashes, the form of every
// event id the SDK makes.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; a fixed id is
		// still a valid one.
		return "00000000-0000-4000-8000-000000000000"
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// eventHeader is the part every event shares. Fields are marshalled in the
// order the SDK writes them, with kind last.
type eventHeader struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Source    string `json:"source"`
}

func header(at time.Time, source string) eventHeader {
	return eventHeader{ID: newUUID(), Timestamp: formatTimestamp(at), Source: source}
}

// stateUpdateJSON builds a ConversationStateUpdateEvent, per-field or
// full_state, whose value is already valid JSON.
func stateUpdateJSON(at time.Time, key string, value json.RawMessage) []byte {
	return stateUpdateWith(at, key, len(value), func(b []byte) []byte { return append(b, value...) })
}

// stateUpdateWith builds a ConversationStateUpdateEvent whose value
// appendValue writes (about size bytes of valid JSON). It is written
// directly, never re-encoded: a full_state value carries the whole base
// state, which is copied once.
func stateUpdateWith(at time.Time, key string, size int, appendValue func([]byte) []byte) []byte {
	h := header(at, "environment")
	buf := make([]byte, 0, size+192)
	buf = append(buf, `{"id":`...)
	buf = append(buf, mustJSON(h.ID)...)
	buf = append(buf, `,"timestamp":`...)
	buf = append(buf, mustJSON(h.Timestamp)...)
	buf = append(buf, `,"source":`...)
	buf = append(buf, mustJSON(h.Source)...)
	buf = append(buf, `,"key":`...)
	buf = append(buf, mustJSON(key)...)
	buf = append(buf, `,"value":`...)
	buf = appendValue(buf)
	buf = append(buf, `,"kind":"`...)
	buf = append(buf, model.KindStateUpdate...)
	return append(buf, `"}`...)
}

// statusUpdateJSON builds a per-field execution_status update.
func statusUpdateJSON(at time.Time, status string) []byte {
	return stateUpdateJSON(at, "execution_status", mustJSON(status))
}

// userRejectJSON builds the UserRejectObservation the agent-server emits for
// each pending action when confirmation is rejected.
func userRejectJSON(at time.Time, toolName, toolCallID, actionID, reason string) []byte {
	return mustJSON(struct {
		eventHeader
		ToolName        string `json:"tool_name"`
		ToolCallID      string `json:"tool_call_id"`
		ActionID        string `json:"action_id"`
		RejectionReason string `json:"rejection_reason"`
		RejectionSource string `json:"rejection_source"`
		Kind            string `json:"kind"`
	}{header(at, "environment"), toolName, toolCallID, actionID, reason, "user", model.KindUserReject})
}

// markerJSON builds an event that has only the header (PauseEvent,
// InterruptEvent).
func markerJSON(at time.Time, source, kind string) []byte {
	return mustJSON(struct {
		eventHeader
		Kind string `json:"kind"`
	}{header(at, source), kind})
}

// userMessageJSON wraps a Message a client sent over the socket into the
// user MessageEvent the agent-server appends for it.
func userMessageJSON(at time.Time, message json.RawMessage) []byte {
	return mustJSON(struct {
		eventHeader
		LLMMessage      json.RawMessage `json:"llm_message"`
		ActivatedSkills []string        `json:"activated_skills"`
		ExtendedContent []any           `json:"extended_content"`
		Kind            string          `json:"kind"`
	}{header(at, "user"), message, []string{}, []any{}, model.KindMessage})
}

// serverErrorJSON builds the WebSocket-only ServerErrorEvent frame.
func serverErrorJSON(at time.Time, code, detail string) []byte {
	return mustJSON(struct {
		eventHeader
		Code   string `json:"code"`
		Detail string `json:"detail"`
		Kind   string `json:"kind"`
	}{header(at, "environment"), code, detail, model.KindServerError})
}

// mustJSON marshals values that cannot fail to marshal (plain structs,
// strings and json.RawMessage already validated).
func mustJSON(v any) []byte {
	b, err := marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

// marshal is json.Marshal without HTML escaping, so event text that went
// through the server reads as it came in.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
