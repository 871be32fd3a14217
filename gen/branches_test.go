package gen

import (
	"encoding/json"
	"testing"
)

// treeNode is an event's id, parent_id and kind.
type treeNode struct {
	ID     string `json:"id"`
	Parent string `json:"parent_id"`
	Kind   string `json:"kind"`
}

// TestBranchesNavigate checks the tree a navigated conversation leaves, read
// with upstream's own rule (EventLog._effective_parent_id): every
// parent_id names an earlier event that became HEAD (never a state
// update), HEAD only ever moves back along its own path, each navigation
// leaves one more branch point, and base_state.json's leaf_event_id is the
// last event that became HEAD, whose path back to the root holds every
// event written after the last navigation.
func TestBranchesNavigate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ events, branches int }{{300, 1}, {3000, 5}, {10000, 20}} {
		o := Options{Events: tt.events, Seed: 21, Branches: tt.branches}
		raws := collect(t, o)
		evs := make([]treeNode, len(raws))
		index := map[string]int{}
		children := map[string]int{}
		head, lastTree := "", -1
		for i, raw := range raws {
			if err := json.Unmarshal(raw, &evs[i]); err != nil {
				t.Fatal(err)
			}
			ev := evs[i]
			if i == 0 {
				if ev.Parent != "" {
					t.Fatalf("the first event has parent_id %q", ev.Parent)
				}
			} else if k, ok := index[ev.Parent]; !ok || evs[k].Kind == "ConversationStateUpdateEvent" {
				t.Fatalf("event %d: parent_id %q is not an earlier tree event", i, ev.Parent)
			}
			if ev.Parent != head {
				// A navigation: only before a user's message, and only back
				// along HEAD's own path.
				if ev.Kind != "MessageEvent" || !onPathTo(evs, index, head, ev.Parent) {
					t.Fatalf("event %d (%s): parent_id %q is not HEAD %q nor behind it", i, ev.Kind, ev.Parent, head)
				}
			}
			if ev.Kind != "ConversationStateUpdateEvent" {
				children[ev.Parent]++
				head, lastTree = ev.ID, i
			}
			index[ev.ID] = i
		}
		points := 0
		for _, n := range children {
			if n > 1 {
				points++
			}
		}
		if points != tt.branches {
			t.Fatalf("%d events: %d branch points, want %d", tt.events, points, tt.branches)
		}
		var base struct {
			Leaf string `json:"leaf_event_id"`
		}
		if err := json.Unmarshal(BaseState(o), &base); err != nil {
			t.Fatal(err)
		}
		if base.Leaf != evs[lastTree].ID {
			t.Fatalf("leaf_event_id %s is not the last tree event %s", base.Leaf, evs[lastTree].ID)
		}
	}
}

// onPathTo reports whether id is on the path from the root to tip.
func onPathTo(evs []treeNode, index map[string]int, tip, id string) bool {
	for tip != "" {
		if tip == id {
			return true
		}
		tip = evs[index[tip]].Parent
	}
	return false
}
