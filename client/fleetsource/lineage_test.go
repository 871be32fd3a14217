package fleetsource

import (
	"context"
	"testing"

	"ohwatch/client/agentserver"
	"ohwatch/model"
)

// TestServerSourceListsAForkUnderItsParent forks a served conversation
// while the fleet is watched: the fork appears with ParentID naming the
// original and ForkedFromEvent the event it was forked at.
func TestServerSourceListsAForkUnderItsParent(t *testing.T) {
	_, url, recs := serveFleet(t, "k-fork", 1, 8, 7)
	var orig string
	for id := range recs {
		orig = id
	}
	c := client(t, url, "k-fork")
	v, _ := watchFleet(t, Server(c, fastServer))
	v.waitFor(t, "the original listed", func(v *fleetView) bool { c := v.conv(orig); return c != nil && len(c.metas) > 0 })
	var at string
	for _, ev := range recs[orig] {
		if ev.Kind == "ActionEvent" && at == "" {
			at = ev.ID
		}
	}
	fork, err := c.Fork(context.Background(), orig, at, "again", true)
	if err != nil {
		t.Fatal(err)
	}
	v.waitFor(t, "the fork listed under the original", func(v *fleetView) bool {
		f := v.conv(fork)
		if f == nil || len(f.metas) == 0 {
			return false
		}
		m := f.metas[len(f.metas)-1]
		return m.ParentID == model.NormalizeConversationID(orig) && m.ForkedFromEvent == at
	})
	v.mu.Lock()
	defer v.mu.Unlock()
	if m := v.conv(orig).metas; m[len(m)-1].ParentID != "" {
		t.Errorf("the original has parent %q", m[len(m)-1].ParentID)
	}
}

func TestDelegatorsPutSubConversationsUnderTheirParent(t *testing.T) {
	parent := &agentserver.ConversationInfo{ID: "p", SubConversationIDs: []string{"a", "b", "p"}}
	named := &agentserver.ConversationInfo{ID: "b", ParentConversationID: "q"}
	got := delegators([]*agentserver.ConversationInfo{parent, named, {ID: "a"}})
	if got["a"] != "p" || got["b"] != "p" || got["p"] != "" {
		t.Errorf("delegators %v", got)
	}
	// A conversation that names its parent keeps it.
	if m := serverMeta(named); m.ParentID != "q" {
		t.Errorf("parent %q", m.ParentID)
	}
}
