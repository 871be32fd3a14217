package serve

import (
	"bytes"
	"encoding/json"
	"errors"

	"ohwatch/model"
)

// A conversation is a tree (SDK v1.31+): every persisted event has a
// parent, HEAD (the state's leaf_event_id) is the event the next one
// hangs from, and navigate moves HEAD to any event. The server keeps HEAD
// as a real agent-server does, and writes an event's parent_id only where
// a client could not infer it: an event without parent_id hangs from the
// tree event before it in the log, so a linear recording goes out byte for
// byte as recorded, and only what follows a navigate (or a fork point)
// carries the HEAD it hangs from.

// rootParent is the parent_id of a root created after navigating to no
// event at all.
const rootParent = "__root__"

// treeEvent reports whether ev is a node of the tree: persisted, and not
// a non-tree artifact (model.EventKind.Artifact: a state update) that
// never becomes HEAD.
func treeEvent(ev model.Event) bool {
	if !model.Persisted(ev) {
		return false
	}
	k := model.KindNamed(ev.Kind)
	return k == nil || !k.Artifact
}

// tree is a conversation's HEAD and what placing the next event needs.
type tree struct {
	// head is HEAD, "" before the first event and after navigating to
	// none (then detached is set and the next event is a new root).
	head     string
	detached bool
	// lastServed is the latest tree event sent: the parent a client infers
	// for an event without parent_id.
	lastServed string
	// recHead and lastRec follow the recording alone: the event its next
	// event continues from, and its latest recorded tree event (the parent
	// of a recorded event without parent_id). A recorded event that
	// continues recHead hangs from HEAD instead, which differs from recHead
	// only after a navigate or a fork; one that names another parent is the
	// recording's own branch and keeps it.
	recHead, lastRec string
	// parents is every persisted event's parent as served ("" or
	// rootParent for a root), for the path a fork copies and the events
	// navigate may move HEAD to.
	parents map[string]string
}

// headParent is the parent an event placed now hangs from.
func (t *tree) headParent() string {
	if t.head == "" && t.detached {
		return rootParent
	}
	return t.head
}

// placeLocked gives ev its place in the tree and makes it HEAD: a recorded
// event continues the recording's line from HEAD (or keeps the branch the
// recording names), an event the server made up hangs from HEAD. When the
// parent differs from the one a client would infer, parent_id is written
// into the event.
func (c *conversation) placeLocked(ev model.Event, madeUp bool) model.Event {
	if !treeEvent(ev) {
		// Not a node, but an event of the log all the same: upstream
		// navigate and fork accept any event id the log holds
		// (LocalConversation.navigate_to and fork: `event_id in
		// self._state.events`), and the artifact hangs from HEAD.
		if model.Persisted(ev) && ev.ID != "" {
			if _, ok := c.tree.parents[ev.ID]; !ok {
				c.tree.parents[ev.ID] = c.tree.headParent()
			}
		}
		return c.restampArtifactLocked(ev, madeUp)
	}
	t := &c.tree
	parent := t.headParent()
	if !madeUp {
		rec := ev.ParentID
		if rec == "" {
			rec = t.lastRec
		}
		if rec != t.recHead {
			parent = rec
		}
		t.recHead, t.lastRec = ev.ID, ev.ID
	}
	inferred := ev.ParentID
	if inferred == "" {
		inferred = t.lastServed
	}
	if parent != inferred && parent != "" {
		if raw, err := withParentID(ev.Raw, parent); err == nil {
			ev.Raw, ev.ParentID = raw, parent
		} else {
			c.log.Error("cannot place event in the tree", "conversation", c.id, "event", ev.ID, "err", err)
		}
	}
	if parent == "" {
		parent = inferred
	}
	if ev.ID != "" {
		t.parents[ev.ID] = parent
		t.head, t.lastServed, t.detached = ev.ID, ev.ID, false
	}
	return ev
}

// restampArtifactLocked gives a recorded artifact that names the
// recording's line as its parent the HEAD of the moment instead, as
// upstream stamps every event. HEAD differs from the recording's line
// after a navigate, a fork or a rejection (the rejection is made up and
// becomes HEAD): a state update still naming the rejected action would
// read to a client as a second child of it, a branch nobody made.
func (c *conversation) restampArtifactLocked(ev model.Event, madeUp bool) model.Event {
	t := &c.tree
	head := t.headParent()
	if madeUp || ev.ParentID == "" || ev.ParentID != t.recHead || head == "" || head == ev.ParentID {
		return ev
	}
	raw, err := withParentID(ev.Raw, head)
	if err != nil {
		c.log.Error("cannot place event in the tree", "conversation", c.id, "event", ev.ID, "err", err)
		return ev
	}
	ev.Raw, ev.ParentID = raw, head
	return ev
}

// errUnknownEvent is navigate's and fork's answer for an event the
// conversation does not have (404).
var errUnknownEvent = errors.New("unknown event_id")

// navigateLocked moves HEAD to the event id, or to none when id is "":
// the next event is a new root then. Any persisted event can be HEAD, as
// upstream, where only appending skips the state updates.
func (c *conversation) navigateLocked(id string) error {
	if id == "" {
		c.tree.head, c.tree.detached = "", true
		return nil
	}
	if _, ok := c.tree.parents[id]; !ok {
		return errUnknownEvent
	}
	c.tree.head, c.tree.detached = id, false
	return nil
}

// navigate moves HEAD (see navigateLocked), sends subscribers the
// snapshot that carries the new leaf_event_id (the agent-server emits no
// per-field update for leaf_event_id) and returns the ConversationInfo
// of that moment.
func (c *conversation) navigate(id string) (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.navigateLocked(id); err != nil {
		return nil, err
	}
	c.log.Info("HEAD moved", "conversation", c.id, "leaf_event_id", id)
	c.broadcastSnapshotLocked()
	return c.infoLocked(), nil
}

// pathLocked returns the emitted tree events from the root to id, in that
// order: the branch a fork from id copies.
func (c *conversation) pathLocked(id string) ([]model.Event, bool) {
	if _, ok := c.tree.parents[id]; !ok {
		return nil, false
	}
	var path []model.Event
	seen := map[string]bool{}
	for cur := id; cur != "" && cur != rootParent && !seen[cur]; cur = c.tree.parents[cur] {
		seen[cur] = true
		i, ok := c.index[cur]
		if !ok {
			break
		}
		path = append(path, c.emitted[i])
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, true
}

// leafLocked is the state's leaf_event_id: HEAD, or null when there is none.
func (c *conversation) leafLocked() json.RawMessage {
	if c.tree.head == "" {
		return json.RawMessage(`null`)
	}
	return mustJSON(c.tree.head)
}

// withParentID returns the event raw with its top-level parent_id set to
// parent: the value replaced where the member exists, otherwise the member
// written after "source" (where the SDK writes it) or first. Everything
// else keeps its bytes.
func withParentID(raw []byte, parent string) ([]byte, error) {
	members, err := topLevelMembers(raw)
	if err != nil {
		return nil, err
	}
	value := mustJSON(parent)
	if m, ok := members["parent_id"]; ok {
		return splice(raw, m.start, m.end, value), nil
	}
	member := append([]byte(`"parent_id":`), value...)
	at := bytes.IndexByte(raw, '{') + 1
	if len(members) > 0 {
		member = append(member, ',')
	}
	if m, ok := members["source"]; ok {
		at = m.end
		member = append([]byte{','}, member[:len(member)-1]...)
	}
	return splice(raw, at, at, member), nil
}

// span is where a member's value lies in the raw object.
type span struct{ start, end int }

// topLevelMembers maps each member of the JSON object raw to where its
// value lies.
func topLevelMembers(raw []byte) (map[string]span, error) {
	if !json.Valid(raw) {
		return nil, errors.New("not valid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	out := map[string]span{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		afterKey := int(dec.InputOffset())
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		start := afterKey + bytes.Index(raw[afterKey:end], v[:1])
		out[key] = span{start, start + len(v)}
	}
	return out, nil
}

// splice replaces raw[start:end] by with, in a new slice.
func splice(raw []byte, start, end int, with []byte) []byte {
	out := make([]byte, 0, len(raw)-(end-start)+len(with))
	out = append(out, raw[:start]...)
	out = append(out, with...)
	return append(out, raw[end:]...)
}
