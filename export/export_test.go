package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/internal/upstream"
	"ohwatch/model"
	"ohwatch/reducer"
)

// hostileText holds what must never reach a terminal from event text: an
// OSC 52 clipboard write, a screen clear, a bidi override, a carriage
// return, a C1 CSI and a bell.
const hostileText = "\x1b]52;c;aGk=\x07\x1b[2J\u202eevil\r\u009b31m\a"

// forbidden are the bytes and runes hostileText carries that sanitising
// must remove.
var forbidden = []string{"\x1b", "\u009b", "\u202e", "\r", "\a"}

// logOf builds a log of the events.
func logOf(evs []model.Event) *reducer.Log {
	log := reducer.NewLog(nil, 0)
	log.Append(evs...)
	return log
}

func TestStateOfRecordings(t *testing.T) {
	dir := filepath.Join(upstream.Dir(t), "trajectories")
	for _, tt := range []stateCase{
		{"simple_echo_hello_world", model.StatusFinished, 0, false, 0},
		{"creating_agent_plan", model.StatusFinished, 5, false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkState(t, tt, testevents.Recorded(t, filepath.Join(dir, tt.name)))
		})
	}
}

// TestStateOfFixtures is TestStateOfRecordings over the project's own
// recordings (in every clone): one without status updates, and one with
// confirmations, a rejection, an error and a condensation.
func TestStateOfFixtures(t *testing.T) {
	for _, tt := range []stateCase{
		// One command exited non-zero: an error (reducer.Failed).
		{fixtures.CLI, model.StatusFinished, 4, false, 1},
		{fixtures.Situations, model.StatusFinished, 0, false, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkState(t, tt, testevents.Recorded(t, fixtures.Path(t, tt.name)))
		})
	}
}

// stateCase is what the state document of a recording must say.
type stateCase struct {
	name      string
	status    string
	tasks     int
	confirmed bool
	errors    int
}

// checkState checks the state document of a whole recording, its JSON and
// its text form, which must be inert whatever the text it carries.
func checkState(t *testing.T, tt stateCase, evs []model.Event) {
	t.Helper()
	log := logOf(evs)
	doc := State(log, -1, []string{"warn " + hostileText}, true)
	if doc.Events != len(evs) || doc.At != len(evs) {
		t.Errorf("events %d at %d, want %d", doc.Events, doc.At, len(evs))
	}
	if doc.ExecutionStatus != tt.status || doc.StatusConfirmed != tt.confirmed {
		t.Errorf("status %q confirmed %v, want %q %v", doc.ExecutionStatus, doc.StatusConfirmed, tt.status, tt.confirmed)
	}
	if len(doc.Tasks) != tt.tasks || doc.Errors != tt.errors {
		t.Errorf("%d tasks %d errors, want %d and %d", len(doc.Tasks), doc.Errors, tt.tasks, tt.errors)
	}
	if doc.Kinds["MessageEvent"] == 0 {
		t.Errorf("kinds %v count no MessageEvent", doc.Kinds)
	}
	var buf bytes.Buffer
	if err := WriteState(&buf, doc); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("state JSON does not parse: %v", err)
	}
	for _, key := range []string{"events", "at", "status", "status_source", "status_confirmed", "iteration",
		"steps", "metrics", "tasks", "pending_actions", "errors", "kinds", "unknown_kinds", "duplicates", "warnings"} {
		if _, ok := back[key]; !ok {
			t.Errorf("state JSON lacks %q", key)
		}
	}
	buf.Reset()
	if err := WriteStateText(&buf, "id"+hostileText, "title"+hostileText, doc); err != nil {
		t.Fatal(err)
	}
	checkInert(t, buf.String())
	if !strings.Contains(buf.String(), "status         "+tt.status) {
		t.Errorf("state text lacks the status line:\n%s", buf.String())
	}
}

func TestStateAtAPrefix(t *testing.T) {
	evs := testevents.Twin(t, "simple_echo_hello_world")
	log := logOf(evs)
	doc := State(log, 2, nil, true)
	if doc.At != 2 || doc.Events != len(evs) {
		t.Fatalf("at %d of %d, want 2 of %d", doc.At, doc.Events, len(evs))
	}
	if doc.ExecutionStatus == model.StatusFinished {
		t.Errorf("two events in, the status is already %q", doc.ExecutionStatus)
	}
	if doc.Warnings == nil || doc.Tasks == nil || doc.PendingActions == nil {
		t.Error("empty lists must encode as [], not null")
	}
}

// TestMarkdownOfHostileRecordings renders every recording with escape
// sequences in every text field: the transcript keeps the text and carries
// none of the sequences.
func TestMarkdownOfHostileRecordings(t *testing.T) {
	for _, dir := range fixtures.Recordings(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var evs []model.Event
			for _, raw := range upstream.EventFiles(t, dir) {
				ev, err := model.Decode(testevents.Poisoned(t, raw, hostileText))
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, ev)
			}
			var buf bytes.Buffer
			if err := Markdown(&buf, "title"+hostileText, logOf(evs), true); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			checkInert(t, out)
			if !strings.Contains(out, "## Transcript") || !strings.Contains(out, "evil") {
				t.Errorf("the transcript lost its text:\n%s", out)
			}
		})
	}
}

func TestMarkdownOfARecording(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, "echo", logOf(testevents.Twin(t, "simple_echo_hello_world")), true); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"# echo", "| status | finished", "**User**", "**Action** `terminal`", "```sh\n$ ", "Output (exit 0):"} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
}

func TestFenceOutgrowsBackticksAndCapsLines(t *testing.T) {
	var buf bytes.Buffer
	m := &mdWriter{w: bufio.NewWriter(&buf)}
	m.fence("", "a ``` b")
	var long []string
	for range maxOutputLines + 5 {
		long = append(long, "line")
	}
	m.fence("sh", strings.Join(long, "\n"))
	if err := m.w.Flush(); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "````\na ``` b\n````\n") {
		t.Errorf("a fence that the text can close:\n%s", out)
	}
	if !strings.Contains(out, "… 5 more lines") || strings.Count(out, "line\n") != maxOutputLines {
		t.Errorf("long output not cut to %d lines:\n%s", maxOutputLines, out)
	}
}

func TestCostText(t *testing.T) {
	costs := []struct {
		u        UsageDoc
		reported bool
		want     string
	}{
		{UsageDoc{PromptTokens: 100}, true, "unknown"},
		{UsageDoc{}, false, "unknown (no metrics reported)"},
		{UsageDoc{CostKnown: true}, true, "$0.00"},
		{UsageDoc{CostUSD: 0.004, CostKnown: true}, true, "$0.0040"},
		{UsageDoc{CostUSD: 1.234, CostKnown: true}, true, "$1.23"},
	}
	for _, c := range costs {
		if got := costText(c.u, c.reported); got != c.want {
			t.Errorf("costText(%+v, %v) = %q, want %q", c.u, c.reported, got, c.want)
		}
	}
}

func checkInert(t *testing.T, out string) {
	t.Helper()
	for _, bad := range forbidden {
		if strings.Contains(out, bad) {
			t.Errorf("output carries %q from event text", bad)
		}
	}
}

// TestTranscriptLeavesOutNoise writes one minimal event of every kind of
// model.Kinds: the noise kinds and the system prompt are left out of the
// transcript, every other kind is in it. (Each carries an observation
// with output, which only an observation reads, since one without output
// is left out.)
func TestTranscriptLeavesOutNoise(t *testing.T) {
	for _, k := range model.Kinds() {
		ev, err := model.Decode([]byte(`{"kind":"` + k.Name + `","id":"e1","source":"agent",` +
			`"observation":{"kind":"ThinkObservation","content":[{"type":"text","text":"out"}]}}`))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Markdown(&buf, "t", logOf([]model.Event{ev}), true); err != nil {
			t.Fatal(err)
		}
		_, transcript, _ := strings.Cut(buf.String(), "## Transcript\n")
		wrote := strings.TrimSpace(transcript) != "" && !strings.HasPrefix(strings.TrimSpace(transcript), "_status")
		if want := !k.Noise && k.Name != model.KindSystemPrompt; wrote != want {
			t.Errorf("%s (noise %v): written %v, want %v:\n%s", k.Name, k.Noise, wrote, want, transcript)
		}
		if isErr := strings.Contains(transcript, "**Error**"); isErr != (k.Group == model.GroupError) {
			t.Errorf("%s (group %s): written as an error %v:\n%s", k.Name, k.Group, isErr, transcript)
		}
	}
}
