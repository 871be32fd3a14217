package conversation

import (
	"encoding/json"
	"strings"
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// bigObservation is a terminal observation with about size bytes of
// output, as a command that printed a large file leaves.
func bigObservation(tb testing.TB, size int) string {
	tb.Helper()
	line := "drwxr-xr-x  2 user user  4096 Jan 27 03:56 some/long/path/to/a/directory/with/a/name\n"
	out := strings.Repeat(line, size/len(line)+1)
	text, err := json.Marshal(out)
	if err != nil {
		tb.Fatal(err)
	}
	return `{"id":"a1","timestamp":"2026-01-27T03:56:17.000000","source":"agent","tool_name":"terminal","tool_call_id":"t1",` +
		`"action":{"command":"cat big.txt","kind":"ExecuteBashAction"},"kind":"ActionEvent"}` + "\x00" +
		`{"id":"o1","timestamp":"2026-01-27T03:56:18.000000","source":"environment","tool_name":"terminal","tool_call_id":"t1",` +
		`"observation":{"content":[{"type":"text","text":` + string(text) + `}],"exit_code":0,"kind":"ExecuteBashObservation"},` +
		`"action_id":"a1","kind":"ObservationEvent"}`
}

// bigMessage is an assistant message of about size bytes of markdown:
// headings, lists, code and tables, as a long report is.
func bigMessage(tb testing.TB, size int) string {
	tb.Helper()
	chunk := "## Section\n\nSome *emphasis* and `code` in a paragraph that runs on for a while to wrap.\n\n" +
		"- one item\n- another item with **bold**\n\n```go\nfunc f() int { return 1 }\n```\n\n" +
		"| a | b |\n|---|---|\n| 1 | 2 |\n\n"
	text, err := json.Marshal(strings.Repeat(chunk, size/len(chunk)+1))
	if err != nil {
		tb.Fatal(err)
	}
	return `{"id":"m1","timestamp":"2026-01-27T03:56:17.000000","source":"agent","llm_message":{"role":"assistant","content":[{"type":"text","text":` +
		string(text) + `}]},"kind":"MessageEvent"}`
}

// benchOpenInspector measures the Update that enter on the last event
// makes: what the event loop waits for before it draws the next frame.
func benchOpenInspector(b *testing.B, raws string) {
	m := newModel(Options{Log: tuitest.FixtureLog(b, strings.Split(raws, "\x00")...)}, 160, 48)
	m, _ = press(b, m, "G")
	b.ReportAllocs()
	for b.Loop() {
		m.Update(tuitest.KeyMsg("enter"))
		// Closed without a key, so the loop times the opening alone.
		m.overlay.Close(inspectorID)
	}
}

func BenchmarkOpenInspectorObservation4MB(b *testing.B) {
	benchOpenInspector(b, bigObservation(b, 4<<20))
}

func BenchmarkOpenInspectorMarkdown200KB(b *testing.B) {
	benchOpenInspector(b, bigMessage(b, 200<<10))
}

// benchBuildInspector measures the command that enter starts: the view
// built off the event loop (the renderer kept from the first build).
func benchBuildInspector(b *testing.B, raws string) {
	m := newModel(Options{Log: tuitest.FixtureLog(b, strings.Split(raws, "\x00")...)}, 160, 48)
	m, _ = press(b, m, "G", "esc")
	b.ReportAllocs()
	for b.Loop() {
		m.Update(tuitest.KeyMsg("enter"))
		// The build is run here rather than by a runtime, so the loop
		// times it alone.
		in, _ := m.insp()
		in.build.run()
		m.overlay.Close(inspectorID)
	}
}

func BenchmarkBuildInspectorObservation4MB(b *testing.B) {
	benchBuildInspector(b, bigObservation(b, 4<<20))
}

func BenchmarkBuildInspectorMarkdown200KB(b *testing.B) {
	benchBuildInspector(b, bigMessage(b, 200<<10))
}
