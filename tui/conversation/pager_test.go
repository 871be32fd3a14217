package conversation

import (
	"os"
	"strings"
	"testing"

	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// pagerLog is a terminal action and its observation (output with tabs
// and newlines), an agent message in markdown, and a file edit.
func pagerLog(t *testing.T) *reducer.Log {
	t.Helper()
	return tuitest.FixtureLog(t,
		`{"id":"a1","timestamp":"2026-01-27T03:56:24","source":"agent","thought":[],"action":{"kind":"TerminalAction","command":"grep -n Front cache.go"},"tool_name":"terminal","tool_call_id":"t1","kind":"ActionEvent"}`,
		`{"id":"o1","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"terminal","tool_call_id":"t1","action_id":"a1","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"80\t\tel := c.ll.Front()\n81\t\tif el != nil {"}],"command":"grep -n Front cache.go","exit_code":0}}`,
		`{"id":"m1","timestamp":"2026-01-27T03:56:26","source":"agent","kind":"MessageEvent","llm_message":{"role":"assistant","content":[{"type":"text","text":"**Eviction bug** fixed:\n\n- the list now evicts the oldest"}]}}`,
		`{"id":"e1","timestamp":"2026-01-27T03:56:27","source":"environment","tool_name":"file_editor","tool_call_id":"t2","action_id":"a2","observation":{"kind":"FileEditorObservation","content":[{"type":"text","text":"edited"}],"is_error":false,"command":"str_replace","path":"/w/cache.go","prev_exist":true,"old_content":"package w\n\nvar a := 1\n","new_content":"package w\n\nvar b := 2\n"},"kind":"ObservationEvent"}`,
	)
}

// pagedText presses o (after keys) and returns the text handed to the
// pager, and the file's name.
func pagedText(t *testing.T, m *Conversation, keys ...string) (string, string) {
	t.Helper()
	_, cmd := press(t, m, append(keys, "o")...)
	if cmd == nil {
		t.Fatal("o returns no command")
	}
	msg, ok := cmd().(pagerFileMsg)
	if !ok || msg.err != nil {
		t.Fatalf("o: %#v", msg)
	}
	defer os.Remove(msg.path)
	b, err := os.ReadFile(msg.path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), msg.path
}

// TestPagerPagesTheRenderedText: o hands the pager what the inspector
// shows, as plain text: a command with its output on lines of their own
// (no "\n" or "\t" escapes of the JSON), a message rendered from its
// markdown, an edit's diff; r then o pages the indented JSON.
func TestPagerPagesTheRenderedText(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: pagerLog(t), Pager: "true"}, 120, 40)

	text, path := pagedText(t, m)
	if !strings.HasSuffix(path, ".txt") {
		t.Errorf("the pager's file is %s, want a .txt", path)
	}
	for _, want := range []string{"$ grep -n Front cache.go", "\n80      el := c.ll.Front()\n", "\n81      if el != nil {\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the paged command lacks %q:\n%s", want, text)
		}
	}
	for _, escaped := range []string{`\n`, `\t`, "\x1b", `"kind"`} {
		if strings.Contains(text, escaped) {
			t.Errorf("the paged text holds %q:\n%s", escaped, text)
		}
	}

	// The observation alone: its output, as the inspector shows it.
	text, _ = pagedText(t, m, "j")
	if !strings.Contains(text, "Output\n80      el := c.ll.Front()\n81      if el != nil {\n") || strings.Contains(text, `\n`) {
		t.Errorf("the paged observation:\n%s", text)
	}

	text, _ = pagedText(t, m, "j")
	if !strings.Contains(text, "Message\nEviction bug fixed:\n") || !strings.Contains(text, "• the list now evicts") || strings.Contains(text, "\x1b") {
		t.Errorf("the paged message is not rendered plain:\n%s", text)
	}

	text, _ = pagedText(t, m, "j", "enter")
	for _, want := range []string{"-var a := 1", "+var b := 2"} {
		if !strings.Contains(text, want) {
			t.Errorf("the paged edit lacks %q:\n%s", want, text)
		}
	}

	text, path = pagedText(t, m, "r")
	if !strings.HasSuffix(path, ".json") || !strings.Contains(text, `"kind": "ObservationEvent"`) {
		t.Errorf("r then o pages %s:\n%s", path, text)
	}
}
