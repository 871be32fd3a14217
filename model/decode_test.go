package model

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/sanitize"
	"ohwatch/internal/upstream"
)

// recordedEvents returns the raw bytes of every recorded event of the shared
// testdata, keyed by "<trajectory>/<file>".
func recordedEvents(tb testing.TB) map[string][]byte {
	tb.Helper()
	return eventsIn(tb, upstream.Trajectories(tb))
}

// ownRecordedEvents is recordedEvents over the project's own recordings
// (internal/fixtures): the twins of the upstream ones, the scripted
// situations, a generated SDK conversation and a branching one.
func ownRecordedEvents(tb testing.TB) map[string][]byte {
	tb.Helper()
	var dirs []string
	for _, name := range append([]string{fixtures.Situations, fixtures.SDK, fixtures.CLI, fixtures.Branches}, fixtures.Shapes...) {
		dirs = append(dirs, fixtures.Path(tb, name))
	}
	return eventsIn(tb, dirs)
}

// eventsIn reads every events/*.json of the recordings in dirs.
func eventsIn(tb testing.TB, dirs []string) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "events", "*.json"))
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			out[filepath.Base(dir)+"/"+filepath.Base(f)] = raw
		}
	}
	if len(out) == 0 {
		tb.Fatal("no recorded events found")
	}
	return out
}

func TestDecodeEveryRecordedEvent(t *testing.T) { decodeEvery(t, recordedEvents(t)) }

// TestDecodeEveryOwnRecordedEvent is TestDecodeEveryRecordedEvent on the
// project's own recordings.
func TestDecodeEveryOwnRecordedEvent(t *testing.T) { decodeEvery(t, ownRecordedEvents(t)) }

// decodeEvery decodes every event of events, by name, into a known kind
// with a full header, its Raw the input and its summary one capped line.
func decodeEvery(t *testing.T, events map[string][]byte) {
	t.Helper()
	for name, raw := range events {
		ev, err := Decode(raw)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, unknown := ev.Body.(*Unknown); unknown {
			t.Errorf("%s: decoded as unknown: %+v", name, ev.Body)
		}
		if ev.ID == "" || ev.Kind == "" || ev.Source == "" || ev.Time.IsZero() || ev.Summary == "" {
			t.Errorf("%s: incomplete header: %+v", name, ev)
		}
		if !strings.Contains(name, ev.ID) {
			t.Errorf("%s: id %q is not the file's", name, ev.ID)
		}
		if &ev.Raw[0] != &raw[0] || len(ev.Raw) != len(raw) {
			t.Errorf("%s: Raw is not the input slice", name)
		}
		if sanitize.Line(ev.Summary) != ev.Summary || len([]rune(ev.Summary)) > summaryLimit+1 {
			t.Errorf("%s: summary not a sanitised capped line: %q", name, ev.Summary)
		}
	}
}

// eventFile finds the one recorded event whose file name has the id prefix.
func eventFile(t *testing.T, trajectory, idPrefix string) []byte {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(upstream.Dir(t), "trajectories", trajectory, "events", "event-*-"+idPrefix+"*.json"))
	if len(matches) != 1 {
		t.Fatalf("%s/%s: %d matches", trajectory, idPrefix, len(matches))
	}
	raw, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestDecodeRecordedKinds(t *testing.T) {
	tests := []struct {
		trajectory, id string
		kind, nested   string
		summary        string
		check          func(t *testing.T, ev Event)
	}{
		{"simple_echo_hello_world", "65867a0d", "SystemPromptEvent", "", "system prompt, 6 tools", func(t *testing.T, ev Event) {
			if tools := ev.Body.(*SystemPrompt).Tools; tools[0] != "terminal" {
				t.Errorf("tools %v", tools)
			}
		}},
		{"simple_echo_hello_world", "0df665dd", "MessageEvent", "", "user: echo hello world", func(t *testing.T, ev Event) {
			if m := ev.Body.(*Message); m.Role != "user" || m.HasToolCalls {
				t.Errorf("%+v", m)
			}
		}},
		{"simple_echo_hello_world", "3097395b", "ActionEvent", "TerminalAction", `Print "hello world" to terminal`, func(t *testing.T, ev Event) {
			a := ev.Body.(*Action)
			if a.Command != "echo hello world" || a.ToolName != "terminal" || a.SecurityRisk != "LOW" || a.ToolCallID != "toolu_011Zy6BF7Ff2WJLX8HDV4tmz" || a.LLMResponseID == "" {
				t.Errorf("%+v", a)
			}
		}},
		{"simple_echo_hello_world", "275d84b1", "ObservationEvent", "TerminalObservation", "terminal: exit 0", func(t *testing.T, ev Event) {
			o := ev.Body.(*Observation)
			if o.ExitCode == nil || *o.ExitCode != 0 || o.ActionID != "3097395b-9d0e-40ea-9721-318280129892" || o.IsError {
				t.Errorf("%+v", o)
			}
		}},
		{"simple_echo_hello_world", "92787e69", "MessageEvent", "", "assistant: hello world", nil},
		{"confirmation_mode", "e5e86d80", "ActionEvent", "TerminalAction", "Echo hello world to terminal", func(t *testing.T, ev Event) {
			if r := ev.Body.(*Action).SecurityRisk; r != "HIGH" {
				t.Errorf("risk %q", r)
			}
		}},
		{"creating_agent_plan", "fb26ede5", "ActionEvent", "TaskTrackerAction", "Create a dummy task plan with 5 sample tasks", func(t *testing.T, ev Event) {
			a := ev.Body.(*Action)
			if a.TaskCommand != "plan" || len(a.Plan) != 5 || a.Plan[0].Title != "Explore the codebase structure" || a.Plan[0].Status != "todo" {
				t.Errorf("%+v", a)
			}
		}},
		{"creating_agent_plan", "dbe6e9d6", "ObservationEvent", "TaskTrackerObservation", "5 tasks: 5 todo", func(t *testing.T, ev Event) {
			o := ev.Body.(*Observation)
			if !o.HasTaskList || len(o.TaskList) != 5 || o.TaskList[1].Notes != "Check README and AGENTS.md for project context" {
				t.Errorf("%+v", o)
			}
		}},
		{"creating_agent_plan", "3a7e40e2", "ActionEvent", "TaskTrackerAction", "View the created dummy task plan", func(t *testing.T, ev Event) {
			if a := ev.Body.(*Action); a.TaskCommand != "view" || a.Plan != nil {
				t.Errorf("%+v", a)
			}
		}},
		{"cli447_hi_followup_iterative_case_a", "9e199f2e", "ActionEvent", "FileEditorAction", "View home directory contents to find any task", nil},
		{"cli447_hi_followup_iterative_case_a", "5fa1e1c4", "ObservationEvent", "FileEditorObservation", "file_editor: Here's the files and directories up to 2 levels deep in /home/xingyaow, excluding hidden items:", nil},
		{"cli447_hi_followup_iterative_case_a", "c8326309", "ObservationEvent", "TerminalObservation", "terminal: exit 0", nil},
		{"cli447_hi_followup_iterative_case_a", "0881f83f", "ActionEvent", "FinishAction", "Complete greeting task and summarize readiness to help", nil},
		{"cli447_hi_followup_iterative_case_a", "38cc901e", "ObservationEvent", "FinishObservation", "finish: **Task Complete!** ✅", nil},
		{"cli447_hi_followup_iterative_case_a", "d9dd0663", "MessageEvent", "", "user: The task appears incomplete (iteration 1/3, predicted success likelihood: 37.8%).", nil},
	}
	for _, tt := range tests {
		t.Run(tt.trajectory+"/"+tt.id, func(t *testing.T) {
			ev, err := Decode(eventFile(t, tt.trajectory, tt.id))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != tt.kind {
				t.Errorf("kind %q, want %q", ev.Kind, tt.kind)
			}
			if got := NestedKind(ev); got != tt.nested {
				t.Errorf("nested kind %q, want %q", got, tt.nested)
			}
			if ev.Summary != tt.summary {
				t.Errorf("summary %q, want %q", ev.Summary, tt.summary)
			}
			if tt.check != nil {
				tt.check(t, ev)
			}
		})
	}
}

func TestDecodeRejectsNonObjects(t *testing.T) {
	big := bytes.Repeat([]byte("["), 2000)
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "empty input"},
		{"whitespace", []byte(" \n\t"), "empty input"},
		{"truncated", []byte(`{"kind":"ActionEvent","id":"a`), "unexpected end of input"},
		{"truncated after key", []byte(`{"kind":`), "unexpected end of input"},
		{"invalid", []byte(`{"kind" "x"}`), "after object key"},
		{"trailing comma", []byte(`{"a":1,}`), "object key"},
		{"trailing data", []byte(`{"a":1} {"b":2}`), "after the end of the object"},
		{"array", []byte(`[{"kind":"ActionEvent"}]`), "got a JSON array"},
		{"string", []byte(`"hello"`), "got a JSON string"},
		{"number", []byte(`42`), "got a JSON number"},
		{"null", []byte(`null`), "got a JSON null"},
		{"binary garbage", []byte{0x00, 0xff, 0xfe, 0x1b, 0x80}, "invalid character"},
		{"control char in string", []byte("{\"a\":\"x\x01y\"}"), "control character"},
		{"bad escape", []byte(`{"a":"\q"}`), "string escape"},
		{"bad unicode escape", []byte(`{"a":"\u12G4"}`), "\\u escape"},
		{"bad number", []byte(`{"a":01}`), "looking for ','"},
		{"bad literal", []byte(`{"a":tru}`), "literal true"},
		{"deep nesting", append(append([]byte(`{"a":`), big...), '}'), "nesting deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode(tt.in)
			if err == nil {
				t.Fatalf("no error; got %+v", ev)
			}
			if !errors.Is(err, ErrNotObject) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestDecodeWrongFieldTypesKeepHeader(t *testing.T) {
	tests := []struct {
		name, in, reason string
	}{
		{"action not an object", `{"kind":"ActionEvent","id":"e1","source":"agent","timestamp":"2026-01-27T03:56:22.718970","action":"rm -rf /"}`, "field action: want object, got string"},
		{"tool name a number", `{"kind":"ActionEvent","id":"e1","source":"agent","timestamp":"2026-01-27T03:56:22","tool_name":7}`, "field tool_name: want string, got number"},
		{"exit code a string", `{"kind":"ObservationEvent","id":"e1","source":"environment","timestamp":"2026-01-27T03:56:22","observation":{"kind":"TerminalObservation","exit_code":"zero"}}`, "field observation.exit_code: want integer, got string"},
		{"task list an object", `{"kind":"ObservationEvent","id":"e1","source":"environment","timestamp":"2026-01-27T03:56:22","observation":{"kind":"TaskTrackerObservation","task_list":{}}}`, "field observation.task_list: want array, got object"},
		{"content items strings", `{"kind":"MessageEvent","id":"e1","source":"user","timestamp":"2026-01-27T03:56:22","llm_message":{"role":"user","content":["hi"]}}`, "field llm_message.content[]: want object, got string"},
		{"stats a list", `{"kind":"ConversationStateUpdateEvent","id":"e1","source":"environment","timestamp":"2026-01-27T03:56:22","key":"stats","value":[]}`, "field value: want object, got array"},
		{"forgotten ids numbers", `{"kind":"Condensation","id":"e1","source":"environment","timestamp":"2026-01-27T03:56:22","forgotten_event_ids":[1,2]}`, "field forgotten_event_ids[]: want string, got number"},
		{"kind a number", `{"kind":5,"id":"e1","source":"user","timestamp":"2026-01-27T03:56:22"}`, "field kind: want string, got number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			u, ok := ev.Body.(*Unknown)
			if !ok || u.Reason != tt.reason {
				t.Fatalf("body %#v, want Unknown{%q}", ev.Body, tt.reason)
			}
			if ev.ID != "e1" || ev.Source == "" || ev.Time.IsZero() {
				t.Errorf("header lost: %+v", ev)
			}
			if !strings.HasPrefix(ev.Summary, "malformed ") {
				t.Errorf("summary %q", ev.Summary)
			}
		})
	}
}

func TestDecodeUnknownKindKept(t *testing.T) {
	raw := []byte(`{"kind":"FutureEvent","id":"f1","source":"agent","timestamp":"2026-08-01T10:00:00Z","parent_id":"p0","whatever":{"deep":[1,2,3]}}`)
	ev, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := ev.Body.(*Unknown); !ok || u.Reason != "" {
		t.Fatalf("body %#v", ev.Body)
	}
	if ev.Summary != "unknown kind FutureEvent" || ev.ParentID != "p0" || ev.ID != "f1" {
		t.Errorf("%+v", ev)
	}
	ev, err = Decode([]byte(`{}`))
	if err != nil || ev.Summary != "event without a kind" {
		t.Errorf("%+v %v", ev, err)
	}
}

func TestDecodeHugeEvent(t *testing.T) {
	output := strings.Repeat("line of output \\u001b[31m\\n", 50<<20/27)
	raw := []byte(`{"kind":"ObservationEvent","id":"big","source":"environment","timestamp":"2026-01-27T03:56:22","tool_name":"terminal","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"` + output + `"}],"exit_code":3}}`)
	ev, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Summary != "terminal: exit 3" {
		t.Errorf("summary %q", ev.Summary)
	}
	raw = []byte(`{"kind":"MessageEvent","id":"big","llm_message":{"role":"user","content":[{"type":"text","text":"` + strings.Repeat("x", 10<<20) + `"}]}}`)
	ev, err = Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(ev.Summary)); n != summaryLimit+1 || !strings.HasSuffix(ev.Summary, "…") {
		t.Errorf("summary of %d runes", n)
	}
}
