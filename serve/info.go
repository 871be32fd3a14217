package serve

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"
)

// ConversationInfo is what GET /api/conversations/{id}, the search, the
// batch get, navigate and fork answer: upstream builds it from
// state.model_dump(mode="json") plus what the server stores beside the
// state (openhands-agent-server conversation_service.py,
// _compose_conversation_info), and FastAPI writes exactly the fields of
// the response model (models.py, _ConversationInfoBase and
// ConversationInfo). So a state field the model lacks (head_is_empty,
// activated_path_rules) is not in it, and each field it has is, with the
// model's default where base_state.json has none.

// infoStaticDefaults are ConversationInfo's fields that do not change
// during the replay, each with the value a server gives when the state
// does not carry it (the pydantic defaults of models.py; the native
// agent's values of the ACP fields, lifted in acpInfo).
var infoStaticDefaults = map[string]json.RawMessage{
	"workspace":                     json.RawMessage(`{"kind":"LocalWorkspace","working_dir":"workspace/project"}`),
	"persistence_dir":               json.RawMessage(`"workspace/conversations"`),
	"max_iterations":                json.RawMessage(`500`),
	"stuck_detection":               json.RawMessage(`true`),
	"confirmation_policy":           json.RawMessage(`{"kind":"NeverConfirm"}`),
	"security_analyzer":             json.RawMessage(`null`),
	"activated_knowledge_skills":    json.RawMessage(`[]`),
	"invoked_skills":                json.RawMessage(`[]`),
	"blocked_actions":               json.RawMessage(`{}`),
	"blocked_messages":              json.RawMessage(`{}`),
	"last_user_message_id":          json.RawMessage(`null`),
	"secret_registry":               json.RawMessage(`{"secret_sources":{}}`),
	"agent_state":                   json.RawMessage(`{}`),
	"hook_config":                   json.RawMessage(`null`),
	"parent_conversation_id":        json.RawMessage(`null`),
	"sub_conversation_ids":          json.RawMessage(`[]`),
	"current_model_id":              json.RawMessage(`null`),
	"available_models":              json.RawMessage(`[]`),
	"supports_runtime_model_switch": json.RawMessage(`false`),
	"launched_agent_profile":        json.RawMessage(`null`),
	"agent":                         json.RawMessage(`{"kind":"Agent","llm":{"model":"unknown","usage_id":"default"},"tools":[]}`),
	"client_tools":                  json.RawMessage(`[]`),
}

// infoStatic encodes ConversationInfo's unchanging members (`"key":value,`
// each, sorted by key) from the state's fields.
func infoStatic(fields map[string]json.RawMessage) []byte {
	vals := make(map[string]json.RawMessage, len(infoStaticDefaults))
	for k, def := range infoStaticDefaults {
		vals[k] = def
		if v, ok := fields[k]; ok {
			if enc, err := marshal(v); err == nil {
				vals[k] = enc
			}
		}
	}
	acpInfo(fields, vals)
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	for _, k := range keys {
		buf.Write(mustJSON(k))
		buf.WriteByte(':')
		buf.Write(vals[k])
		buf.WriteByte(',')
	}
	return buf.Bytes()
}

// acpInfo lifts an ACP agent's model state onto ConversationInfo as a
// server reading a stored conversation does (conversation_service.py,
// _compose_conversation_info: current_model_id from agent_state's
// acp_current_model_id, else the agent's acp_model; available_models
// from acp_available_models; supports_runtime_model_switch from
// acp_supports_runtime_model_switch). A native agent keeps the defaults.
func acpInfo(fields, vals map[string]json.RawMessage) {
	var state struct {
		Current   json.RawMessage `json:"acp_current_model_id"`
		Available json.RawMessage `json:"acp_available_models"`
		Switch    bool            `json:"acp_supports_runtime_model_switch"`
	}
	var agent struct {
		Model json.RawMessage `json:"acp_model"`
	}
	_ = json.Unmarshal(fields["agent_state"], &state)
	_ = json.Unmarshal(fields["agent"], &agent)
	switch {
	case truthy(state.Current):
		vals["current_model_id"] = state.Current
	case truthy(agent.Model):
		vals["current_model_id"] = agent.Model
	}
	if truthy(state.Available) {
		vals["available_models"] = state.Available
	}
	if state.Switch {
		vals["supports_runtime_model_switch"] = json.RawMessage(`true`)
	}
}

// truthy reports whether a JSON value is what Python's `or` keeps: not
// null, "", [] or {}.
func truthy(v json.RawMessage) bool {
	switch string(bytes.TrimSpace(v)) {
	case "", "null", `""`, "[]", "{}", "false", "0":
		return false
	}
	return true
}

// infoTimeLayout is how a ConversationInfo's created_at and updated_at
// read: pydantic's JSON of an aware UTC datetime (utc_now()), always with
// microseconds.
const infoTimeLayout = "2006-01-02T15:04:05.000000Z"

// infoTime formats t as ConversationInfo's timestamps.
func infoTime(t time.Time) json.RawMessage {
	return mustJSON(t.UTC().Format(infoTimeLayout))
}
