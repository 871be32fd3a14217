package conversation

import (
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui/internal/tuitest"
)

// rendered renders one raw event for the inspector, as plain text.
func rendered(t *testing.T, raw string) string {
	t.Helper()
	return strings.Join(renderEvent(tuitest.Decode(t, []byte(raw)), 0, theme.Plain(), nil, 0), "\n")
}

func TestRenderFileEditAsUnifiedDiff(t *testing.T) {
	t.Parallel()
	out := rendered(t, `{"id":"a1","timestamp":"2026-01-27T03:56:24","source":"agent","thought":[],"action":{"kind":"FileEditorAction","command":"str_replace","path":"/w/cache.go","old_str":"el := c.ll.Front()\nif el != nil {","new_str":"el := c.ll.Back()\nif el != nil {"},"tool_name":"file_editor","tool_call_id":"t","tool_call":{"id":"t","name":"file_editor","arguments":"{}","origin":"completion"},"llm_response_id":"r","security_risk":"LOW","kind":"ActionEvent"}`)
	for _, want := range []string{"--- a/w/cache.go", "+++ b/w/cache.go", "-el := c.ll.Front()", "+el := c.ll.Back()", " if el != nil {"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "No newline") {
		t.Errorf("snippet diff complains about newlines:\n%s", out)
	}
	// An observation with old_content/new_content renders the same way.
	out = rendered(t, `{"id":"o1","timestamp":"2026-01-27T03:56:25","source":"environment","tool_name":"file_editor","tool_call_id":"t","action_id":"a1","observation":{"kind":"FileEditorObservation","command":"create","path":"/w/new.go","prev_exist":false,"old_content":null,"new_content":"package w\n","content":[{"type":"text","text":"File created"}]},"kind":"ObservationEvent"}`)
	if !strings.Contains(out, "+package w") || !strings.Contains(out, "+++ b/w/new.go") {
		t.Errorf("observation diff:\n%s", out)
	}
}

func TestRenderKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		raw  string
		want []string
	}{
		{"message", `{"id":"m","timestamp":"2026-01-27T03:56:24","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"line one\nline two"},{"type":"image","image_urls":["data:image/png;base64,AAAA"]}]},"kind":"MessageEvent"}`,
			[]string{"role: user", "line one", "line two", "[1 image(s)]"}},
		{"terminal observation", `{"id":"o","timestamp":"2026-01-27T03:56:24","source":"environment","tool_name":"terminal","tool_call_id":"t","action_id":"a","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"hello\tworld"}],"command":"echo hello","exit_code":0,"metadata":{"exit_code":0}},"kind":"ObservationEvent"}`,
			[]string{"$ echo hello", "exit code: 0", "hello", "world"}},
		{"task plan", `{"id":"a","timestamp":"2026-01-27T03:56:24","source":"agent","thought":[],"action":{"kind":"TaskTrackerAction","command":"plan","task_list":[{"title":"Write tests","notes":"table tests","status":"in_progress"},{"title":"Ship","notes":"","status":"done"}]},"tool_name":"task_tracker","tool_call_id":"t","tool_call":{"id":"t","name":"task_tracker","arguments":"{}","origin":"completion"},"llm_response_id":"r","security_risk":"LOW","kind":"ActionEvent"}`,
			[]string{"◐ Write tests", "table tests", "☑ Ship"}},
		{"think", `{"id":"a","timestamp":"2026-01-27T03:56:24","source":"agent","thought":[],"action":{"kind":"ThinkAction","thought":"the list is reversed"},"tool_name":"think","tool_call_id":"t","tool_call":{"id":"t","name":"think","arguments":"{}","origin":"completion"},"llm_response_id":"r","security_risk":"LOW","kind":"ActionEvent"}`,
			[]string{"Thought", "the list is reversed"}},
		{"finish", `{"id":"a","timestamp":"2026-01-27T03:56:24","source":"agent","thought":[],"action":{"kind":"FinishAction","message":"All done."},"tool_name":"finish","tool_call_id":"t","tool_call":{"id":"t","name":"finish","arguments":"{}","origin":"completion"},"llm_response_id":"r","security_risk":"LOW","kind":"ActionEvent"}`,
			[]string{"Finish", "All done."}},
		{"unknown kind", `{"id":"u","timestamp":"2026-01-27T03:56:24","source":"agent","kind":"FutureEvent","answer":42,"nested":{"a":[1,2]}}`,
			[]string{"FutureEvent", "answer: 42", "nested"}},
		{"agent error", `{"id":"e","timestamp":"2026-01-27T03:56:24","source":"agent","tool_name":"terminal","tool_call_id":"t","error":"bad args","classification":{"kind":"agent_action"},"kind":"AgentErrorEvent"}`,
			[]string{"classification: agent_action", "bad args"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := rendered(t, tt.raw)
			if strings.Contains(out, "\t") {
				t.Errorf("a tab reaches the screen:\n%s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestRenderEveryRealEvent renders every event of every real recording in
// every inspector mode without losing the screen's shape.
func TestRenderEveryRealEvent(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan", "cli447_hi_followup_iterative_case_a"} {
		renderEvery(t, name, tuitest.Trajectory(t, name))
	}
}

// TestRenderEveryOwnEvent is TestRenderEveryRealEvent on the project's
// own recordings: the twins of the upstream ones and the scripted
// situations, unknown kinds and branches.
func TestRenderEveryOwnEvent(t *testing.T) {
	t.Parallel()
	for _, name := range append([]string{fixtures.Situations, fixtures.Unknown, fixtures.Branches, fixtures.SDK}, fixtures.Shapes...) {
		renderEvery(t, name, tuitest.Recorded(t, name))
	}
}

// renderEvery renders every event of log in every inspector mode and
// checks the screen's shape and that no control byte reaches it.
func renderEvery(t *testing.T, name string, log *reducer.Log) {
	t.Helper()
	{
		m := newModel(Options{Log: log}, 120, 40)
		m, _ = press(t, m, "F")
		for i := 0; i < log.Len(); i++ {
			for _, mode := range []string{"", "r", "d"} {
				k, _ := press(t, m, "enter")
				if mode != "" {
					k, _ = press(t, k, mode)
				}
				out := screen(k)
				tuitest.AssertScreenShape(t, out, 120, 40)
				if _, bad := forbidden(out); bad {
					t.Fatalf("%s #%d: control bytes on screen", name, i+1)
				}
			}
			m, _ = press(t, m, "j")
		}
	}
}
