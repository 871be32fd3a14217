package files

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/sanitize"
)

// TestLoadBadEventFiles puts one bad file between two good ones for each
// kind of bad input: the bad file becomes a warning naming it (or is kept
// when it is an object), and both good events still load.
func TestLoadBadEventFiles(t *testing.T) {
	good := messageEvent(eventID(1), "hello")
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	tests := []struct {
		name string
		raw  []byte
		keep bool     // the bad event itself is kept
		want []string // parts of the warning; nil: no warning
	}{
		{"truncated", good[:len(good)/2], false, []string{"truncated JSON"}},
		{"invalid JSON", []byte(`{"kind":"MessageEvent","id":oops}`), false, []string{"invalid JSON at offset 28"}},
		{"array", []byte(`[{"kind":"MessageEvent"}]`), false, []string{"not an object (an array)"}},
		{"string", []byte(`"just a string"`), false, []string{"not an object (a string)"}},
		{"empty", nil, false, []string{"empty file (0 bytes)"}},
		{"whitespace", []byte(" \n\t"), false, []string{"only whitespace"}},
		{"binary garbage", []byte{0x00, 0xff, 0xfe, 0x1b, '[', '2', 'J', 0x07}, false, []string{"invalid JSON at offset 0"}},
		{"deeply nested", []byte(`{"kind":"MessageEvent","x":` + deep + `}`), false, []string{"event-00001-"}},
		{"wrong field types", []byte(`{"kind":"ActionEvent","id":"` + eventID(9) + `","timestamp":"2026-01-27T03:56:22","source":"agent","tool_name":42,"action":"no"}`), true, []string{"ActionEvent kept as unknown"}},
		{"unknown kind", []byte(`{"kind":"FutureEvent","id":"` + eventID(9) + `"}`), true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			events := filepath.Join(dir, "events")
			writeEvent(t, events, 0, eventID(0), messageEvent(eventID(0), "before"))
			bad := writeEvent(t, events, 1, eventID(9), tc.raw)
			writeEvent(t, events, 2, eventID(2), messageEvent(eventID(2), "after"))
			conv := mustLoad(t, dir)
			wantEvents := 2
			if tc.keep {
				wantEvents = 3
			}
			if len(conv.Events) != wantEvents {
				t.Fatalf("%d events, want %d; warnings %q", len(conv.Events), wantEvents, conv.Warnings)
			}
			if conv.Events[0].ID != eventID(0) || conv.Events[len(conv.Events)-1].ID != eventID(2) {
				t.Errorf("the good events around the bad one were lost")
			}
			if tc.want == nil {
				if len(conv.Warnings) != 0 {
					t.Errorf("unexpected warnings %q", conv.Warnings)
				}
				return
			}
			hasWarning(t, conv.Warnings, append([]string{"events/" + bad + ": "}, tc.want...)...)
			for _, w := range conv.Warnings {
				if w != sanitize.Line(w) {
					t.Errorf("warning is not sanitised: %q", w)
				}
			}
		})
	}
}

// TestLoadEventFileThatIsADirectory warns about an event name that is not
// a regular file and reads on.
func TestLoadEventFileThatIsADirectory(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events")
	writeEvent(t, events, 0, eventID(0), messageEvent(eventID(0), "a"))
	mustMkdir(t, filepath.Join(events, "event-00001-"+eventID(1)+".json"))
	writeEvent(t, events, 2, eventID(2), messageEvent(eventID(2), "c"))
	conv := mustLoad(t, dir)
	if len(conv.Events) != 2 {
		t.Fatalf("%d events", len(conv.Events))
	}
	hasWarning(t, conv.Warnings, "events/event-00001-"+eventID(1)+".json: cannot read: not a regular file")
}

// TestLoadHugeEvent reads a 16 MB event whole: far beyond every buffer
// the loader carves (64 KB slab blocks) or reads in (4 MB JSONL segments).
func TestLoadHugeEvent(t *testing.T) {
	t.Parallel()
	raw := messageEvent(eventID(0), "BIG")
	raw = bytes.Replace(raw, []byte("BIG"), bytes.Repeat([]byte("a"), 16<<20), 1)
	dir := writeConversation(t, [][]byte{raw}, []string{eventID(0)})
	conv := mustLoad(t, dir)
	if len(conv.Events) != 1 || !bytes.Equal(conv.Events[0].Raw, raw) || len(conv.Warnings) != 0 {
		t.Fatalf("%d events, warnings %q", len(conv.Events), conv.Warnings)
	}
}

// TestLoadKeepsDuplicateIDs keeps two events with one id: deduplication
// is the log's job, and it counts them.
func TestLoadKeepsDuplicateIDs(t *testing.T) {
	raw := messageEvent(eventID(7), "twice")
	dir := writeConversation(t, [][]byte{raw, raw}, []string{eventID(7), eventID(7)})
	conv := mustLoad(t, dir)
	if len(conv.Events) != 2 {
		t.Fatalf("%d events, want both duplicates", len(conv.Events))
	}
}

// TestLoadReportsIndexProblems reads past gaps (the SDK would stop at the
// first) and reports gaps, a missing start and an index used twice.
func TestLoadReportsIndexProblems(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events")
	for _, i := range []int{2, 3, 5, 9} {
		writeEvent(t, events, i, eventID(i), messageEvent(eventID(i), "m"))
	}
	writeEvent(t, events, 5, eventID(55), messageEvent(eventID(55), "second five"))
	conv := mustLoad(t, dir)
	if len(conv.Events) != 5 {
		t.Fatalf("%d events, want all 5 files", len(conv.Events))
	}
	hasWarning(t, conv.Warnings, "events/: index gap: events 00000-00001 are missing")
	hasWarning(t, conv.Warnings, "events/: index gap: event 00004 is missing (before event-00005-")
	hasWarning(t, conv.Warnings, "index 00005 is used twice")
	hasWarning(t, conv.Warnings, "events/: index gap: events 00006-00008 are missing")
}

// TestLoadMissingParts covers a path that does not exist, a directory that
// is no conversation, and a conversation without events/.
func TestLoadMissingParts(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "nope")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing path: err = %v", err)
	}
	root := t.TempDir()
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "not a conversation directory") {
		t.Errorf("empty directory: err = %v", err)
	}
	writeEvent(t, filepath.Join(root, "a", "events"), 0, eventID(0), messageEvent(eventID(0), "a"))
	writeEvent(t, filepath.Join(root, "b", "events"), 0, eventID(1), messageEvent(eventID(1), "b"))
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "a root of 2 conversations") {
		t.Errorf("root of conversations: err = %v", err)
	}
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "base_state.json"), []byte(`{"id":"6a1b5c1e-9a4b-4e6f-8a5d-0f0e0d0c0b0a","execution_status":"finished"}`))
	conv := mustLoad(t, dir)
	hasWarning(t, conv.Warnings, "events/: missing")
	if conv.ID != "6a1b5c1e9a4b4e6f8a5d0f0e0d0c0b0a" {
		t.Errorf("ID = %q", conv.ID)
	}
}

// TestLoadBadBaseState keeps the events when base_state.json is broken.
func TestLoadBadBaseState(t *testing.T) {
	raws, ids := realEvents(t, "confirmation_mode")
	dir := writeConversation(t, raws, ids)
	mustWrite(t, filepath.Join(dir, "base_state.json"), []byte(`{"id": "abc", "stats": `))
	mustWrite(t, filepath.Join(dir, "meta.json"), []byte(`[1]`))
	conv := mustLoad(t, dir)
	sameRaws(t, rawsOf(conv.Events), raws)
	hasWarning(t, conv.Warnings, "base_state.json: truncated JSON")
	hasWarning(t, conv.Warnings, "meta.json: ")
}
