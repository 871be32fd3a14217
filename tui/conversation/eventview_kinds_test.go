package conversation

import (
	"strings"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui/internal/tuitest"
)

// TestInspectorRendersEveryKind renders one event of every kind of
// model.Kinds (and the nested actions and observations with layouts of
// their own) from its typed payload and finds the fields each shows; the
// header's id, kind, source and time are not repeated below it. A kind
// added to the table without an event here fails.
func TestInspectorRendersEveryKind(t *testing.T) {
	t.Parallel()
	covered := map[string]bool{}
	for _, c := range inspectorCorpus {
		t.Run(c.name, func(t *testing.T) {
			ev := tuitest.Decode(t, []byte(c.raw))
			if k := model.KindOf(&ev); k != nil {
				covered[k.Name] = true
			}
			out := strings.Join(renderEvent(ev, 0, theme.Plain(), nil, 0), "\n")
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			for _, header := range []string{"\nid: ", "\nkind: ", "\nsource: ", "\ntimestamp: ", "<nil>", "\t"} {
				if strings.Contains(out, header) {
					t.Errorf("shows %q:\n%s", header, out)
				}
			}
		})
	}
	for _, k := range model.Kinds() {
		if !covered[k.Name] {
			t.Errorf("no event of kind %s in inspectorCorpus", k.Name)
		}
	}
}

// TestInspectorFieldOrder pins the order fields are shown in: a typed
// payload in its type's order (the upstream class's), a payload without a
// type in the order sent, nested JSON as sent (not re-sorted, not
// HTML-escaped).
func TestInspectorFieldOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		order     []string
	}{
		{"typed", `{"kind":"HookExecutionEvent","id":"h","reason":"r","exit_code":2,"hook_command":"c","hook_event_type":"Stop"}`,
			[]string{"hook_event_type: Stop", "hook_command: c", "success: false", "blocked: false", "exit_code: 2", "reason: r"}},
		{"untyped", `{"kind":"FutureEvent","id":"f","zeta":1,"alpha":"<a&b>","mid":{"z":1,"a":"<x>"}}`,
			[]string{"zeta: 1", "alpha: <a&b>", `"z": 1`, `"a": "<x>"`}},
		{"client action", `{"kind":"ActionEvent","id":"a","action":{"url":"u","kind":"ClientAction_open","after":true},"tool_name":"open","tool_call_id":"t"}`,
			[]string{"action: ClientAction_open", "url: u", "after: true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := strings.Join(renderEvent(tuitest.Decode(t, []byte(tt.raw)), 0, theme.Plain(), nil, 0), "\n")
			at := 0
			for _, w := range tt.order {
				i := strings.Index(out[at:], w)
				if i < 0 {
					t.Fatalf("lacks %q after offset %d:\n%s", w, at, out)
				}
				at += i + len(w)
			}
		})
	}
}

// TestInspectorSaysWhatDidNotDecode: a payload whose fields have the wrong
// types shows what decoded and says what did not; a raw that is not a
// JSON object is shown as text.
func TestInspectorSaysWhatDidNotDecode(t *testing.T) {
	t.Parallel()
	// The lean decoder reads no "thought"; the full payload does.
	out := rendered(t, `{"kind":"ActionEvent","id":"a","thought":5,"action":{"kind":"ThinkAction","thought":"hmm"},"tool_name":"think","tool_call_id":"t"}`)
	for _, w := range []string{"payload: ActionEvent: json: cannot unmarshal number", "action: ThinkAction", "hmm"} {
		if !strings.Contains(out, w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
	ev := tuitest.Decode(t, []byte(`{"kind":"MessageEvent","id":"m"}`))
	ev.Raw = []byte(`[1,2]`)
	out = strings.Join(renderEvent(ev, 0, theme.Plain(), nil, 0), "\n")
	if !strings.Contains(out, "not a JSON object") || !strings.Contains(out, "[1,2]") {
		t.Errorf("a raw array:\n%s", out)
	}
}

// TestInspectorHostileCorpus renders every event of the corpus with hostile
// text appended to every string: no control byte survives.
func TestInspectorHostileCorpus(t *testing.T) {
	t.Parallel()
	for _, c := range inspectorCorpus {
		raw := testevents.Poisoned(t, []byte(c.raw), tuitest.HostileText)
		out := strings.Join(renderEvent(tuitest.Decode(t, raw), 3, theme.Plain(), nil, 0), "\n")
		if bad, ok := forbidden(out); ok {
			t.Errorf("%s: %s in\n%q", c.name, bad, out)
		}
	}
}

// FuzzEventView renders any event the decoder accepts for the inspector:
// no control byte from the event reaches a line. Seeded with the corpus.
func FuzzEventView(f *testing.F) {
	for _, c := range inspectorCorpus {
		f.Add([]byte(c.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		ev, err := model.Decode(raw)
		if err != nil {
			return
		}
		lines, md := renderEventMarkdown(ev, 0, theme.Plain(), nil, 0, true)
		out := strings.Join(lines, "\n")
		if md != nil {
			out += md.text
		}
		if bad, ok := forbidden(out); ok {
			t.Fatalf("%s in %q", bad, out)
		}
	})
}

// TestInspectorShowsTheAnalyzersVerdictBesideTheLLMs: an action judged by
// the security analyzer shows both risks, and says when they differ.
func TestInspectorShowsTheAnalyzersVerdictBesideTheLLMs(t *testing.T) {
	t.Parallel()
	ev := tuitest.Decode(t, []byte(`{"id":"a1","source":"agent","kind":"ActionEvent","action":{"kind":"TerminalAction","command":"rm -rf build"},"tool_name":"terminal","tool_call_id":"t1","security_risk":"LOW"}`))
	sa := &model.SecurityAnalysis{Analyzer: "LLMSecurityAnalyzer", Policy: "ConfirmRisky", Risks: []model.ActionRisk{{ActionID: "a1", Risk: "HIGH"}}}
	lines, _ := renderEventWith(ev, 0, theme.Plain(), nil, 0, sa, false)
	out := strings.Join(lines, "\n")
	if !strings.Contains(out, "risk: LOW (the LLM's) · HIGH (LLMSecurityAnalyzer, what ConfirmRisky reads) — they differ") {
		t.Errorf("no verdict beside the LLM's:\n%s", out)
	}
	lines, _ = renderEventWith(ev, 0, theme.Plain(), nil, 0, nil, false)
	if out := strings.Join(lines, "\n"); !strings.Contains(out, "risk: LOW") || strings.Contains(out, "analyzer") {
		t.Errorf("without an analysis:\n%s", out)
	}
}
