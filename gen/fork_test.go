package gen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteRootForks checks the forks WriteRoot writes against upstream's
// fork layout: each its own directory named by its hex id, meta.json
// naming the source (hex) and the event forked at, the source's branch
// from the root to that event copied byte for byte and in order, the
// fork's own events hanging from the fork point, base_state.json with the
// fork's id, HEAD on its own events and stats counting only its own calls.
func TestWriteRootForks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	o := Options{Events: 2000, Seed: 5, Branches: 3, Forks: 2}
	dirs, err := WriteRoot(root, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 3 {
		t.Fatalf("wrote %d conversations, want 3", len(dirs))
	}
	orig := readEventFiles(t, dirs[0])
	if len(orig) != o.Events {
		t.Fatalf("the conversation has %d events, want %d", len(orig), o.Events)
	}
	origByID := map[string][]byte{}
	origParent := map[string]string{}
	for _, raw := range orig {
		var n treeNode
		if err := json.Unmarshal(raw, &n); err != nil {
			t.Fatal(err)
		}
		origByID[n.ID] = raw
		origParent[n.ID] = n.Parent
	}
	srcHex := filepath.Base(dirs[0])
	for k, dir := range dirs[1:] {
		var meta struct {
			ID, Title                string
			ForkedFromConversationID string `json:"forked_from_conversation_id"`
			ForkedFromEventID        string `json:"forked_from_event_id"`
		}
		readJSON(t, filepath.Join(dir, "meta.json"), &meta)
		if meta.ID != filepath.Base(dir) || meta.ForkedFromConversationID != srcHex || meta.Title == "" {
			t.Fatalf("fork %d: meta.json %+v (dir %s, source %s)", k, meta, filepath.Base(dir), srcHex)
		}
		from := meta.ForkedFromEventID
		if _, ok := origByID[from]; !ok {
			t.Fatalf("fork %d: forked_from_event_id %q is not an event of the source", k, from)
		}
		var branch []string
		for id := from; id != ""; id = origParent[id] {
			branch = append(branch, id)
		}
		slices.Reverse(branch)
		evs := readEventFiles(t, dir)
		if len(evs) != len(branch)+forkLength(o) {
			t.Fatalf("fork %d: %d events, want %d copied + %d own", k, len(evs), len(branch), forkLength(o))
		}
		for j, id := range branch {
			if string(evs[j]) != string(origByID[id]) {
				t.Fatalf("fork %d: event %d is not the source's %s byte for byte", k, j, id)
			}
		}
		var first treeNode
		if err := json.Unmarshal(evs[len(branch)], &first); err != nil {
			t.Fatal(err)
		}
		if first.Parent != from || first.Kind != "MessageEvent" || origByID[first.ID] != nil {
			t.Fatalf("fork %d: first own event %+v, want a new MessageEvent with parent_id %s", k, first, from)
		}
		var base struct {
			ID    string `json:"id"`
			Leaf  string `json:"leaf_event_id"`
			Stats struct {
				UsageToMetrics map[string]struct {
					Costs []json.RawMessage `json:"costs"`
				} `json:"usage_to_metrics"`
			} `json:"stats"`
		}
		readJSON(t, filepath.Join(dir, "base_state.json"), &base)
		if strings.ReplaceAll(base.ID, "-", "") != meta.ID {
			t.Fatalf("fork %d: base_state id %s, meta id %s", k, base.ID, meta.ID)
		}
		if origByID[base.Leaf] != nil {
			t.Fatalf("fork %d: HEAD %s is a copied event, not one of its own", k, base.Leaf)
		}
		calls := 0
		for _, u := range base.Stats.UsageToMetrics {
			calls += len(u.Costs)
		}
		own := 0
		for _, raw := range evs[len(branch):] {
			if strings.Contains(string(raw), `"key":"stats"`) {
				own++
			}
		}
		if calls == 0 || calls > own {
			t.Fatalf("fork %d: base stats hold %d calls, its own stats updates are %d: metrics were not reset", k, calls, own)
		}
	}
}

func readEventFiles(t *testing.T, dir string) [][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "events", "event-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	out := make([][]byte, len(names))
	for i, n := range names {
		if out[i], err = os.ReadFile(n); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
