package reducer

import (
	"fmt"
	"strings"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// rawEvent is one event of a table: kind, id, parent id ("" for none) and
// the members after them.
func rawEvent(kind, id, parent, members string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"id":%q,"timestamp":"2026-03-14T09:26:53.000000","source":"environment"`, id)
	if parent != "" {
		fmt.Fprintf(&b, `,"parent_id":%q`, parent)
	}
	if members != "" {
		b.WriteString("," + members)
	}
	fmt.Fprintf(&b, `,"kind":%q}`, kind)
	return []byte(b.String())
}

const (
	sysMembers  = `"system_prompt":{"type":"text","text":"s"},"tools":[]`
	userMembers = `"llm_message":{"role":"user","content":[{"type":"text","text":"go"}]}`
)

func statusUpdate(id, parent, status string) []byte {
	return rawEvent("ConversationStateUpdateEvent", id, parent, `"key":"execution_status","value":"`+status+`"`)
}

// TestTreeNodesAreUpstreams pins HEAD, the tip and the count of a path's
// tree nodes to upstream's tree: every appended event becomes HEAD but a
// ConversationStateUpdateEvent (openhands-sdk ConversationState.
// append_event). The error run is what a real 1.43.1 agent-server wrote
// for an LLM call that failed: its base_state.json names the
// ConversationErrorEvent as leaf_event_id.
func TestTreeNodesAreUpstreams(t *testing.T) {
	for _, tc := range []struct {
		name    string
		evs     [][]byte
		leaf    string // HEAD's tree event, the SDK's leaf_event_id
		nodes   int    // the SDK's active_branch() length
		updates int
	}{
		{"trailing state updates", [][]byte{
			rawEvent("SystemPromptEvent", "s", "", sysMembers),
			rawEvent("MessageEvent", "u", "s", userMembers),
			statusUpdate("x1", "u", "running"),
			statusUpdate("x2", "u", "finished"),
		}, "u", 2, 2},
		{"a real server's failed run", [][]byte{
			rawEvent("SystemPromptEvent", "da504a82", "", sysMembers),
			rawEvent("MessageEvent", "48372270", "da504a82", userMembers),
			rawEvent("ConversationStateUpdateEvent", "864e3ad1", "48372270", `"key":"last_user_message_id","value":"48372270"`),
			statusUpdate("4b27efd4", "48372270", "running"),
			statusUpdate("aeef9abc", "48372270", "error"),
			rawEvent("ConversationErrorEvent", "3b4835ee", "48372270", `"code":"LLMError","detail":"boom"`),
		}, "3b4835ee", 3, 3},
		{"navigated back, updates on both branches", [][]byte{
			rawEvent("SystemPromptEvent", "s", "", sysMembers),
			rawEvent("MessageEvent", "u1", "s", userMembers),
			statusUpdate("x1", "u1", "finished"),
			rawEvent("MessageEvent", "u2", "s", userMembers),
			statusUpdate("x2", "u2", "running"),
			statusUpdate("x3", "u2", "finished"),
		}, "u2", 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := NewLog(nil, 0)
			log.Append(testevents.Decode(t, tc.evs...)...)
			p := log.HeadPath()
			nodes, updates := log.PathNodes(p)
			if got := log.Event(log.NodeTip(p)).ID; got != tc.leaf {
				t.Errorf("tip %s, want %s", got, tc.leaf)
			}
			if got := log.Event(log.Leaf()).ID; got != tc.leaf {
				t.Errorf("Leaf %s, want %s", got, tc.leaf)
			}
			if nodes != tc.nodes || updates != tc.updates || nodes+updates != p.Len() {
				t.Errorf("%d nodes and %d state updates on a path of %d, want %d and %d", nodes, updates, p.Len(), tc.nodes, tc.updates)
			}
			checkEveryPathFold(t, log, nil, 0)
		})
	}
	// The table of kinds says so too: only state updates are artifacts.
	if k := model.KindNamed(model.KindConversationError); k == nil || k.Artifact {
		t.Error("ConversationErrorEvent is flagged a non-tree artifact")
	}
}
