package serve

import (
	"encoding/json"
	"time"

	"ohwatch/model"
)

// emptyStats is the stats of a conversation that has made no LLM call.
var emptyStats = json.RawMessage(`{"usage_to_metrics":{}}`)

// stateFieldsLocked is the conversation's ConversationState as of now, in
// the base_state.json shape: the recording's base_state.json is the
// template (a minimal state when there is none), with the id, the execution
// status the reducer derives from the emitted events, and the latest stats.
func (c *conversation) stateFieldsLocked() map[string]json.RawMessage {
	fields := map[string]json.RawMessage{}
	if c.base != nil && len(c.base.Raw) > 0 {
		if err := json.Unmarshal(c.base.Raw, &fields); err != nil {
			fields = map[string]json.RawMessage{}
		}
	}
	if len(fields) == 0 {
		fields = minimalState(c.dashedID)
	}
	fields["id"] = mustJSON(c.dashedID)
	status := c.state.Status
	if status == "" {
		status = model.StatusIdle
	}
	fields["execution_status"] = mustJSON(status)
	fields["stats"] = c.statsLocked(fields["stats"])
	return fields
}

// statsLocked is the stats as of now: the latest per-field stats update;
// for a recording without any, the base's stats once the replay is done
// (base_state.json describes the end), and no usage before that.
func (c *conversation) statsLocked(baseStats json.RawMessage) json.RawMessage {
	if c.stats != nil {
		return c.stats
	}
	if !c.statsEvents && c.done && len(baseStats) > 0 {
		return baseStats
	}
	return emptyStats
}

// minimalState is the ConversationState of a recording that came without
// base_state.json (a plain SDK or CLI run): the fields clients read, with
// the SDK's defaults.
func minimalState(dashedID string) map[string]json.RawMessage {
	return map[string]json.RawMessage{
		"id":                         mustJSON(dashedID),
		"agent":                      json.RawMessage(`{"kind":"Agent","llm":{"model":"unknown","usage_id":"default"},"tools":[]}`),
		"workspace":                  json.RawMessage(`{"kind":"LocalWorkspace","working_dir":"workspace/project"}`),
		"persistence_dir":            mustJSON("workspace/conversations/" + undashed(dashedID)),
		"max_iterations":             json.RawMessage(`500`),
		"stuck_detection":            json.RawMessage(`true`),
		"execution_status":           mustJSON(model.StatusIdle),
		"confirmation_policy":        json.RawMessage(`{"kind":"NeverConfirm"}`),
		"activated_knowledge_skills": json.RawMessage(`[]`),
		"blocked_actions":            json.RawMessage(`{}`),
		"blocked_messages":           json.RawMessage(`{}`),
		"stats":                      emptyStats,
		"secret_registry":            json.RawMessage(`{"secret_sources":{}}`),
		"agent_state":                json.RawMessage(`{}`),
	}
}

func undashed(id string) string {
	out := make([]byte, 0, len(id))
	for i := 0; i < len(id); i++ {
		if id[i] != '-' {
			out = append(out, id[i])
		}
	}
	return string(out)
}

// snapshotLocked builds the full_state frame of this moment, stamped by the
// recording's clock with a fresh id.
func (c *conversation) snapshotLocked() []byte {
	return stateUpdateJSON(c.nowLocked(), "full_state", mustJSON(c.stateFieldsLocked()))
}

// subscribeFrameLocked is the first frame a new socket gets: the snapshot,
// or execution_status=idle while the replay has not started (the
// agent-server's answer for a conversation whose service is not active).
func (c *conversation) subscribeFrameLocked() []byte {
	if c.next == 0 && len(c.emitted) == 0 {
		return statusUpdateJSON(c.nowLocked(), model.StatusIdle)
	}
	return c.snapshotLocked()
}

// info is the REST ConversationInfo: the state plus title, times and the
// metadata fields the agent-server adds.
func (c *conversation) info() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	fields := c.stateFieldsLocked()
	title := json.RawMessage(`null`)
	switch {
	case c.base != nil && c.base.Title != "":
		title = mustJSON(c.base.Title)
	case c.title != "":
		title = mustJSON(c.title)
	}
	fields["title"] = title
	fields["metrics"] = json.RawMessage(`null`)
	fields["created_at"] = mustJSON(c.created.UTC().Format(time.RFC3339Nano))
	fields["updated_at"] = mustJSON(c.updated.UTC().Format(time.RFC3339Nano))
	return mustJSON(fields)
}

// status is the execution status as of now, what the conversation list
// filters on.
func (c *conversation) status() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state.Status
}
