package serve

import (
	"bytes"
	"encoding/json"
	"slices"

	"ohwatch/model"
)

// emptyStats is the stats of a conversation that has made no LLM call.
var emptyStats = json.RawMessage(`{"usage_to_metrics":{}}`)

// dynamicKeys are the fields of the reported state that change during the
// replay (or that ConversationInfo adds); every other field comes from the
// template as it is.
var dynamicKeys = []string{"archived_at", "confirmation_policy", "created_at", "execution_status", "forked_from_conversation_id", "forked_from_event_id", "id", "leaf_event_id", "metrics", "stats", "tags", "title", "updated_at"}

// template is the part of the reported ConversationState that does not
// change during the replay, encoded once: base_state.json can be tens of
// megabytes (its stats carry every call), and every run end and every
// REST answer needs it.
type template struct {
	// static is the encoded members (`"key":value,` each) of every field
	// but the dynamic ones, sorted by key.
	static []byte
	// info is the same for ConversationInfo (info.go): its own fields,
	// with their defaults.
	info []byte
	// dynamic holds the base's own values of the dynamic keys.
	dynamic map[string]json.RawMessage
}

// newTemplate parses the recording's base_state.json (a minimal state when
// there is none, or when it does not parse).
func newTemplate(base *model.BaseState, dashedID string) *template {
	fields := map[string]json.RawMessage{}
	if base != nil && len(base.Raw) > 0 {
		if err := json.Unmarshal(base.Raw, &fields); err != nil {
			fields = map[string]json.RawMessage{}
		}
	}
	if len(fields) == 0 {
		fields = minimalState(dashedID)
	}
	t := &template{dynamic: map[string]json.RawMessage{}}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	for _, k := range keys {
		v, err := marshal(fields[k])
		if err != nil {
			continue // a value that does not re-encode is left out
		}
		if slices.Contains(dynamicKeys, k) {
			t.dynamic[k] = v
			continue
		}
		buf.Write(mustJSON(k))
		buf.WriteByte(':')
		buf.Write(v)
		buf.WriteByte(',')
	}
	t.static = buf.Bytes()
	t.info = infoStatic(fields)
	return t
}

// encodeInfo returns ConversationInfo: its unchanging members, then the
// dynamic ones (the base's, overridden by set).
func (t *template) encodeInfo(set map[string]json.RawMessage) []byte {
	return t.appendWith(make([]byte, 0, t.size()), t.info, set)
}

// size is about the length of the encoded state.
func (t *template) size() int { return len(t.static) + 512 }

// appendTo appends the encoded state to dst.
func (t *template) appendTo(dst []byte, set map[string]json.RawMessage) []byte {
	return t.appendWith(dst, t.static, set)
}

// appendWith appends the object of the static members and the dynamic ones.
func (t *template) appendWith(dst, static []byte, set map[string]json.RawMessage) []byte {
	dst = append(dst, '{')
	dst = append(dst, static...)
	first := true
	for _, k := range dynamicKeys {
		v, ok := set[k]
		if !ok {
			v, ok = t.dynamic[k]
		}
		if !ok {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, mustJSON(k)...)
		dst = append(dst, ':')
		dst = append(dst, v...)
	}
	if first && len(static) > 0 {
		dst = dst[:len(dst)-1] // the static part's trailing comma
	}
	return append(dst, '}')
}

// stateFieldsLocked is what changes in the reported ConversationState: the
// id, the execution status a client has been told, the latest stats and
// HEAD.
func (c *conversation) stateFieldsLocked() map[string]json.RawMessage {
	set := map[string]json.RawMessage{
		"id":               mustJSON(c.dashedID),
		"execution_status": mustJSON(c.statusLocked()),
		"stats":            c.statsLocked(c.tmpl.dynamic["stats"]),
		"leaf_event_id":    c.leafLocked(),
		"tags":             c.tagsLocked(),
	}
	if c.policy != nil {
		set["confirmation_policy"] = c.policy.raw
	}
	return set
}

// tagsLocked is the state's tags: a fork's own (its request's tags and
// its title as tags.title), else the base's, else none.
func (c *conversation) tagsLocked() json.RawMessage {
	if c.fork != nil {
		return c.fork.tags
	}
	if t, ok := c.tmpl.dynamic["tags"]; ok {
		return t
	}
	return json.RawMessage(`{}`)
}

// statusLocked is the execution status as of now: the last one sent.
func (c *conversation) statusLocked() string {
	if c.sentStatus == "" {
		return model.StatusIdle
	}
	return c.sentStatus
}

// statsLocked is the stats as of now: the latest per-field stats update,
// with the per-call lists as they stood then (stats.go);
// for a recording without any, the base's stats once the replay is done
// (base_state.json describes the end), and no usage before that. A fork
// reports only what it was given and its own updates.
func (c *conversation) statsLocked(baseStats json.RawMessage) json.RawMessage {
	if len(c.statsEvent) > 0 {
		if len(c.statsFull.of) > 0 && &c.statsFull.of[0] == &c.statsEvent[0] {
			return c.statsFull.value
		}
		if v := stateValue(c.statsEvent); v != nil {
			if !c.listsRead {
				c.lists, c.listsRead = baseCallLists(c.base), true
			}
			v = withCallLists(v, c.lists)
			c.statsFull.of, c.statsFull.value = c.statsEvent, v
			return v
		}
	}
	if !c.statsEvents && c.done && c.fork == nil && len(baseStats) > 0 {
		if c.baseFull == nil {
			c.baseFull = withCallLists(baseStats, nil)
		}
		return c.baseFull
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
	c.snapshots++
	fields := c.stateFieldsLocked()
	return stateUpdateWith(c.nowLocked(), "full_state", c.tmpl.size()+len(fields["stats"]), func(b []byte) []byte {
		return c.tmpl.appendTo(b, fields)
	})
}

// broadcastSnapshotLocked sends the snapshot of this moment to every
// subscriber. With none, nothing is built: a snapshot is live-only, and
// building one copies the whole base state.
func (c *conversation) broadcastSnapshotLocked() {
	if c.silent || len(c.subs) == 0 {
		return
	}
	c.broadcastLocked(c.snapshotLocked())
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
	return c.infoLocked()
}

// infoLocked is info with the lock held.
func (c *conversation) infoLocked() json.RawMessage {
	fields := c.stateFieldsLocked()
	title := json.RawMessage(`null`)
	forkedFrom, forkedAt := json.RawMessage(`null`), json.RawMessage(`null`)
	if c.fork != nil {
		forkedFrom = mustJSON(c.fork.conversation)
		if c.fork.event != "" {
			forkedAt = mustJSON(c.fork.event)
		}
	}
	fields["forked_from_conversation_id"], fields["forked_from_event_id"] = forkedFrom, forkedAt
	switch {
	case c.fork != nil && c.fork.title != "":
		title = mustJSON(c.fork.title)
	case c.base != nil && c.base.Title != "":
		title = mustJSON(c.base.Title)
	case c.title != "":
		title = mustJSON(c.title)
	}
	fields["title"] = title
	fields["metrics"] = json.RawMessage(`null`)
	// As a real server's utc_now(): when it started and when it last
	// changed, in play time, not the recording's dates.
	fields["created_at"] = infoTime(c.started)
	fields["updated_at"] = infoTime(maxTime(c.active, c.started))
	if f := c.faults.get(); f.Archives {
		// Only a server with archives has the field (SDK #4994).
		fields["archived_at"] = json.RawMessage(`null`)
		if c.archivedAt(f) {
			fields["archived_at"] = infoTime(maxTime(c.active, c.started))
		}
	}
	return c.tmpl.encodeInfo(fields)
}

// status is the execution status as of now, what the conversation list
// filters on.
func (c *conversation) status() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.statusLocked()
}
