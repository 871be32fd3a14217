package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"ohwatch/client/files"
)

// TestExportJSONLIsTerminalSafe exports events carrying a raw C1 control
// (8-bit CSI, as UTF-8 and as a lone byte), a right-to-left override, a
// line separator and invalid UTF-8: the JSONL is valid, one event a line,
// holds none of them raw, reads back as the same events, and writes each
// event exactly as replay --json does (one rule for both).
func TestExportJSONLIsTerminalSafe(t *testing.T) {
	hostile := []string{
		"{\"kind\":\"MessageEvent\",\"id\":\"e1\",\"timestamp\":\"2026-01-27T03:56:21\",\"source\":\"user\",\"llm_message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"clear \u009b2J and \u202eexe.txt\u2028!\"}]}}",
		"{\"kind\":\"MessageEvent\",\"id\":\"e2\",\"timestamp\":\"2026-01-27T03:56:22\",\"source\":\"agent\",\"llm_message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"lone \x9b2J byte, bad \xff\xfe utf-8\"}]}}",
	}
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(hostile, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, nil, "export", path, "--format", "jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), out)
	}
	if !utf8.ValidString(out) {
		t.Error("the export is not valid UTF-8")
	}
	for _, bad := range []string{"\u009b", "\x9b", "\u202e", "\u2028", "\xff"} {
		if strings.Contains(out, bad) {
			t.Errorf("the export holds %q raw", bad)
		}
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("invalid JSONL line %q", l)
		}
	}
	if !strings.Contains(lines[0], `\u009b2J and \u202eexe.txt\u2028!`) {
		t.Errorf("line 1 = %s", lines[0])
	}
	back := filepath.Join(t.TempDir(), "back.jsonl")
	os.WriteFile(back, []byte(out), 0o644)
	conv, err := files.Load(back)
	if err != nil || len(conv.Events) != 2 || conv.Events[0].Summary != mustLoadSummary(t, path) {
		t.Fatalf("read back: %v, %d events", err, len(conv.Events))
	}

	// replay --json writes each event it prints with the same bytes.
	_, replayed, _ := runCmd(t, nil, "replay", path, "--json")
	for _, l := range strings.Split(replayed, "\n") {
		var line struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Event json.RawMessage `json:"event"`
		}
		if json.Unmarshal([]byte(l), &line) != nil || line.Type != "event" {
			continue
		}
		want := lines[0]
		if line.ID == "e2" {
			want = lines[1]
		}
		if !bytes.Equal(line.Event, []byte(want)) {
			t.Errorf("replay --json writes event %s differently from the export:\n%s\n%s", line.ID, line.Event, want)
		}
	}
}

// mustLoadSummary is the first event's summary as loaded from path.
func mustLoadSummary(t *testing.T, path string) string {
	t.Helper()
	conv, err := files.Load(path)
	if err != nil || len(conv.Events) == 0 {
		t.Fatalf("load %s: %v", path, err)
	}
	return conv.Events[0].Summary
}
