package files

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
)

// realEvents returns the raw event files of a recording, in index order,
// with the ids their names carry. recording is a conversation directory,
// or the name of an upstream CLI trajectory, which reads the project's
// recording of its shape (internal/fixtures) so that it runs everywhere.
func realEvents(t testing.TB, recording string) (raws [][]byte, ids []string) {
	t.Helper()
	dir := filepath.Join(recording, "events")
	if !filepath.IsAbs(recording) {
		own, ok := map[string]string{
			"simple_echo_hello_world":             fixtures.Echo,
			"confirmation_mode":                   fixtures.Confirm,
			"creating_agent_plan":                 fixtures.Plan,
			"cli447_hi_followup_iterative_case_a": fixtures.Critic,
		}[recording]
		if !ok {
			t.Fatalf("no own recording of the shape of %s", recording)
		}
		dir = filepath.Join(fixtures.Path(t, own), "events")
	}
	names, err := readNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := eventFiles(names)
	for _, f := range files {
		raw, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
		ids = append(ids, f.ID)
	}
	return raws, ids
}

// messageEvent is a minimal user MessageEvent with the given id and text.
func messageEvent(id, text string) []byte {
	return fmt.Appendf(nil, `{"kind":"MessageEvent","id":%q,"timestamp":"2026-01-27T03:56:22.906445","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":%q}]}}`, id, text)
}

// eventID makes a uuid-shaped event id from a number.
func eventID(n int) string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
}

// writeEvent writes one SDK event file.
func writeEvent(t testing.TB, eventsDir string, index int, id string, raw []byte) string {
	t.Helper()
	if err := os.MkdirAll(eventsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("event-%05d-%s.json", index, id)
	if err := os.WriteFile(filepath.Join(eventsDir, name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// mustMkdir creates a directory or fails the test.
func mustMkdir(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// writeConversation writes raws as an SDK conversation directory and
// returns it.
func writeConversation(t testing.TB, raws [][]byte, ids []string) string {
	t.Helper()
	dir := t.TempDir()
	for i, raw := range raws {
		writeEvent(t, filepath.Join(dir, "events"), i, ids[i], raw)
	}
	return dir
}

// rawsOf returns the Raw bytes of events.
func rawsOf(events []model.Event) [][]byte {
	out := make([][]byte, len(events))
	for i, ev := range events {
		out[i] = ev.Raw
	}
	return out
}

// sameRaws fails the test unless got holds exactly want, in order.
func sameRaws(t testing.TB, got, want [][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("event %d: raw bytes differ:\n got %.120q\nwant %.120q", i, got[i], want[i])
		}
	}
}

// hasWarning fails the test unless some warning contains every part.
func hasWarning(t testing.TB, warnings []string, parts ...string) {
	t.Helper()
	for _, w := range warnings {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(w, p)
		}
		if all {
			return
		}
	}
	t.Fatalf("no warning contains %q; warnings:\n%s", parts, strings.Join(warnings, "\n"))
}

// mustLoad loads the conversation at path or fails the test.
func mustLoad(t testing.TB, path string) *Conversation {
	t.Helper()
	conv, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return conv
}
