package files

import (
	"path/filepath"
	"testing"
)

// TestList summarises a root of conversations without reading every
// event: id, title, status, event count, cost and last activity, most
// recent first; directories that hold no conversation are skipped.
func TestList(t *testing.T) {
	root := t.TempDir()
	// A conversation written by the agent-server: base state, meta.json.
	raws, ids := realEvents(t, "simple_echo_hello_world")
	served := filepath.Join(root, "0f3c9a2e8b7d4c1a9e6f5d4c3b2a1908")
	for i, raw := range raws {
		writeEvent(t, filepath.Join(served, "events"), i, ids[i], raw)
	}
	mustWrite(t, filepath.Join(served, "base_state.json"), []byte(`{"id":"0f3c9a2e-8b7d-4c1a-9e6f-5d4c3b2a1908","execution_status":"finished",`+
		`"stats":{"usage_to_metrics":{"default":{"model_name":"m","accumulated_cost":0.25},"condenser":{"model_name":"m","accumulated_cost":0.5}}}}`))
	mustWrite(t, filepath.Join(served, "meta.json"), []byte(`{"title":"Say hello","updated_at":"2020-01-01T00:00:00Z"}`))
	// A plain SDK conversation: events only; the title is the first user
	// message.
	raws2, ids2 := realEvents(t, "creating_agent_plan")
	plain := filepath.Join(root, "aaaabbbbccccddddeeeeffff00001111")
	for i, raw := range raws2 {
		writeEvent(t, filepath.Join(plain, "events"), i, ids2[i], raw)
	}
	// Not conversations.
	mustWrite(t, filepath.Join(root, "notes", "readme.txt"), []byte("hi"))
	mustWrite(t, filepath.Join(root, "stray.json"), []byte("{}"))

	list, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("%d conversations, want 2: %+v", len(list), list)
	}
	byID := map[string]Summary{}
	for _, s := range list {
		byID[s.ID] = s
	}
	s := byID["0f3c9a2e8b7d4c1a9e6f5d4c3b2a1908"]
	if s.Title != "Say hello" || s.Status != "finished" || s.Events != len(raws) || !s.CostKnown || s.CostUSD != 0.75 {
		t.Errorf("served conversation: %+v", s)
	}
	first := mustLoad(t, served)
	if last := first.Events[len(first.Events)-1].Time; !s.LastActivity.Equal(last) {
		t.Errorf("last activity %v, want the last event's %v", s.LastActivity, last)
	}
	p := byID["aaaabbbbccccddddeeeeffff00001111"]
	if p.Title == "" || p.Status != "" || p.CostKnown || p.Events != len(raws2) {
		t.Errorf("plain conversation: %+v", p)
	}
	if !list[0].LastActivity.After(list[1].LastActivity) && !list[0].LastActivity.Equal(list[1].LastActivity) {
		t.Errorf("not sorted by last activity: %v then %v", list[0].LastActivity, list[1].LastActivity)
	}
}

// TestListMissingRoot is an error naming the root.
func TestListMissingRoot(t *testing.T) {
	if _, err := List(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Fatal("no error")
	}
}

// TestDefaultRoot honours OPENHANDS_CONVERSATIONS_DIR, then
// OPENHANDS_PERSISTENCE_DIR, then the home directory.
func TestDefaultRoot(t *testing.T) {
	t.Setenv("OPENHANDS_CONVERSATIONS_DIR", "/x/conv")
	t.Setenv("OPENHANDS_PERSISTENCE_DIR", "/y")
	if got := DefaultRoot(); got != "/x/conv" {
		t.Errorf("DefaultRoot() = %q", got)
	}
	t.Setenv("OPENHANDS_CONVERSATIONS_DIR", "")
	if got := DefaultRoot(); got != filepath.Join("/y", "conversations") {
		t.Errorf("DefaultRoot() = %q", got)
	}
	t.Setenv("OPENHANDS_PERSISTENCE_DIR", "")
	t.Setenv("HOME", "/home/someone")
	if got := DefaultRoot(); got != "/home/someone/.openhands/conversations" {
		t.Errorf("DefaultRoot() = %q", got)
	}
}

// TestListFallbacks takes the last activity from meta.json when there are
// no events, and names a broken base_state.json in the warnings.
func TestListFallbacks(t *testing.T) {
	root := t.TempDir()
	empty := filepath.Join(root, "empty")
	mustWrite(t, filepath.Join(empty, "base_state.json"), []byte(`{"id":"x","execution_status":`))
	mustWrite(t, filepath.Join(empty, "meta.json"), []byte(`{"title":"t","updated_at":"2026-03-04T05:06:07Z"}`))
	list, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Fatalf("%d conversations", len(list))
	}
	s := list[0]
	if s.LastActivity.Format("2006-01-02T15:04:05") != "2026-03-04T05:06:07" || s.Events != 0 || s.CostKnown {
		t.Errorf("summary %+v", s)
	}
	hasWarning(t, s.Warnings, "base_state.json: truncated JSON")
}
