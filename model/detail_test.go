package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/sanitize"
	"ohwatch/internal/upstream"
)

func mustDecode(t *testing.T, raw []byte) Event {
	t.Helper()
	ev, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestDetailEveryRecordedEvent(t *testing.T) {
	for name, raw := range recordedEvents(t) {
		ev := mustDecode(t, raw)
		d, err := ev.Detail()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		switch p := d.(type) {
		case *ActionEvent:
			if p.Action == nil || p.ActionKind != NestedKind(ev) {
				t.Errorf("%s: action %T kind %q", name, p.Action, p.ActionKind)
			}
			if _, generic := p.Action.(*GenericAction); generic {
				t.Errorf("%s: %s has no type", name, p.ActionKind)
			}
		case *ObservationEvent:
			if p.Observation == nil || p.ObservationKind != NestedKind(ev) {
				t.Errorf("%s: observation %T kind %q", name, p.Observation, p.ObservationKind)
			}
			if _, generic := p.Observation.(*GenericObservation); generic {
				t.Errorf("%s: %s has no type", name, p.ObservationKind)
			}
		case *UnknownEvent:
			t.Errorf("%s: unknown detail for %s", name, ev.Kind)
		}
	}
}

func TestDetailRecordedPayloads(t *testing.T) {
	t.Run("message with reasoning, thinking and critic", func(t *testing.T) {
		d, err := mustDecode(t, eventFile(t, "cli447_hi_followup_iterative_case_a", "9a788fe8")).Detail()
		if err != nil {
			t.Fatal(err)
		}
		m := d.(*MessageEvent)
		if !strings.HasPrefix(m.Text(), "Hi there! 👋") || !strings.Contains(m.Text(), "\n- Write or debug code") {
			t.Errorf("text %q", m.Text())
		}
		if m.LLMMessage.ReasoningContent == "" || len(m.LLMMessage.ThinkingBlocks) != 1 || m.LLMMessage.ThinkingBlocks[0].Signature == "" {
			t.Errorf("reasoning %+v", m.LLMMessage)
		}
		if m.CriticResult == nil || m.CriticResult.Score < 0.37 || m.CriticResult.Score > 0.38 {
			t.Errorf("critic %+v", m.CriticResult)
		}
	})
	t.Run("system prompt", func(t *testing.T) {
		d, err := mustDecode(t, eventFile(t, "cli447_hi_followup_iterative_case_a", "12bead78")).Detail()
		if err != nil {
			t.Fatal(err)
		}
		s := d.(*SystemPromptEvent)
		if len(s.SystemPrompt.Text) < 1000 || len(s.Tools) != 6 || s.Tools[0].Title != "terminal" || s.Tools[0].ActionType == "" {
			t.Errorf("%d chars, tools %+v", len(s.SystemPrompt.Text), s.Tools)
		}
		if s.DynamicContext == nil || s.DynamicContext.Text == "" {
			t.Errorf("dynamic context missing")
		}
	})
	t.Run("terminal pair", func(t *testing.T) {
		action := mustDecode(t, eventFile(t, "cli447_hi_followup_iterative_case_a", "0de97de1"))
		obs := mustDecode(t, eventFile(t, "cli447_hi_followup_iterative_case_a", "c8326309"))
		run, err := TerminalPair(action, obs)
		if err != nil {
			t.Fatal(err)
		}
		if run.Command != "ls -la /home/xingyaow" || run.ExitCode == nil || *run.ExitCode != 0 || !strings.Contains(run.Output, ".bash_history") {
			t.Errorf("%+v", run)
		}
		// The raw output holds terminal escapes: the detail keeps them and
		// Sanitize removes them.
		if !strings.Contains(run.Output, "\x1b[01;34m") || strings.Contains(sanitize.Text(run.Output), "\x1b") {
			t.Errorf("escapes not as expected")
		}
		if _, err := TerminalPair(mustDecode(t, eventFile(t, "cli447_hi_followup_iterative_case_a", "9e199f2e")), Event{}); err == nil {
			t.Error("a file editor action read as a terminal command")
		}
	})
	t.Run("file editor view is not an edit", func(t *testing.T) {
		d, err := mustDecode(t, eventFile(t, "cli447_hi_followup_iterative_case_a", "5fa1e1c4")).Detail()
		if err != nil {
			t.Fatal(err)
		}
		o := d.(*ObservationEvent)
		fe := o.Observation.(*FileEditorObservation)
		if fe.Command != "view" || !strings.HasPrefix(o.Output(), "Here's the files") {
			t.Errorf("%+v", fe)
		}
		if _, ok := FileEditOf(d); ok {
			t.Error("a view reported as an edit")
		}
	})
	t.Run("task tracker", func(t *testing.T) {
		d, err := mustDecode(t, eventFile(t, "creating_agent_plan", "dbe6e9d6")).Detail()
		if err != nil {
			t.Fatal(err)
		}
		tt := d.(*ObservationEvent).Observation.(*TaskTrackerObservation)
		if tt.Command != "plan" || len(tt.TaskList) != 5 {
			t.Errorf("%+v", tt)
		}
	})
	t.Run("finish", func(t *testing.T) {
		d, err := mustDecode(t, eventFile(t, "cli447_hi_followup_iterative_case_a", "0881f83f")).Detail()
		if err != nil {
			t.Fatal(err)
		}
		a := d.(*ActionEvent)
		if f := a.Action.(*FinishAction); !strings.HasPrefix(f.Message, "**Task Complete!**") || !strings.HasPrefix(a.ThoughtText(), "Let me provide") {
			t.Errorf("%+v", f)
		}
	})
}

func TestDetailNestedKinds(t *testing.T) {
	tests := []struct {
		name, raw string
		check     func(t *testing.T, d any)
	}{
		{"file edit observation", `{"kind":"ObservationEvent","observation":{"kind":"FileEditorObservation","command":"str_replace","path":"/a.go","prev_exist":true,"old_content":"a\n","new_content":"b\n","content":[]}}`, func(t *testing.T, d any) {
			c, ok := FileEditOf(d)
			if !ok || c.Path != "/a.go" || c.Old != "a\n" || c.New != "b\n" || c.Created || c.Partial {
				t.Errorf("%+v", c)
			}
		}},
		{"file create action", `{"kind":"ActionEvent","action":{"kind":"FileEditorAction","command":"create","path":"/n.go","file_text":"package n"}}`, func(t *testing.T, d any) {
			c, ok := FileEditOf(d)
			if !ok || c.New != "package n" || !c.Created {
				t.Errorf("%+v", c)
			}
		}},
		{"planning file editor", `{"kind":"ActionEvent","action":{"kind":"PlanningFileEditorAction","command":"str_replace","path":"PLAN.md","old_str":"x","new_str":"y"}}`, func(t *testing.T, d any) {
			c, ok := FileEditOf(d)
			if !ok || !c.Partial || c.Old != "x" || c.New != "y" {
				t.Errorf("%+v", c)
			}
		}},
		{"gemini edit", `{"kind":"ObservationEvent","observation":{"kind":"EditObservation","file_path":"/e","is_new_file":false,"replacements_made":1,"old_content":"o","new_content":"n","content":[],"is_error":false}}`, func(t *testing.T, d any) {
			c, ok := FileEditOf(d)
			if !ok || c.Path != "/e" || c.Old != "o" || c.New != "n" {
				t.Errorf("%+v", c)
			}
		}},
		{"gemini write", `{"kind":"ActionEvent","action":{"kind":"WriteFileAction","file_path":"/w","content":"text"}}`, func(t *testing.T, d any) {
			if a := d.(*ActionEvent).Action.(*WriteFileAction); a.Content != "text" {
				t.Errorf("%+v", a)
			}
		}},
		{"gemini read and list", `{"kind":"ObservationEvent","observation":{"kind":"ListDirectoryObservation","dir_path":"/","entries":[{"name":"a","path":"/a","is_directory":true,"size":0}],"total_count":1,"is_truncated":false,"content":[{"type":"text","text":"a/"}]}}`, func(t *testing.T, d any) {
			o := d.(*ObservationEvent)
			if l := o.Observation.(*ListDirectoryObservation); len(l.Entries) != 1 || !l.Entries[0].IsDirectory || o.Output() != "a/" {
				t.Errorf("%+v", l)
			}
		}},
		{"browser action keeps its kind", `{"kind":"ActionEvent","action":{"kind":"BrowserNavigateAction","url":"https://example.com","new_tab":true}}`, func(t *testing.T, d any) {
			if b := d.(*ActionEvent).Action.(*BrowserAction); b.Kind != "BrowserNavigateAction" || b.URL != "https://example.com" || !b.NewTab {
				t.Errorf("%+v", b)
			}
		}},
		{"browser observation", `{"kind":"ObservationEvent","observation":{"kind":"BrowserObservation","screenshot_data":"iVBOR","content":[{"type":"image","image_urls":["data:image/png;base64,iVBOR"]}]}}`, func(t *testing.T, d any) {
			o := d.(*ObservationEvent)
			if b := o.Observation.(*BrowserObservation); b.ScreenshotData != "iVBOR" || o.Output() != "[image]" {
				t.Errorf("%+v %q", b, o.Output())
			}
		}},
		{"mcp", `{"kind":"ActionEvent","tool_name":"fetch","action":{"kind":"MCPToolAction","data":{"url":"u"}}}`, func(t *testing.T, d any) {
			if m := d.(*ActionEvent).Action.(*MCPToolAction); string(m.Data) != `{"url":"u"}` {
				t.Errorf("%s", m.Data)
			}
		}},
		{"client action", `{"kind":"ActionEvent","action":{"kind":"ClientAction_open_url","url":"u"}}`, func(t *testing.T, d any) {
			if c := d.(*ActionEvent).Action.(*ClientAction); c.Tool != "open_url" || !strings.Contains(string(c.Raw), `"url":"u"`) {
				t.Errorf("%+v", c)
			}
		}},
		{"unknown action kind", `{"kind":"ActionEvent","action":{"kind":"TeleportAction","where":"mars"}}`, func(t *testing.T, d any) {
			if g := d.(*ActionEvent).Action.(*GenericAction); g.Kind != "TeleportAction" || !strings.Contains(string(g.Raw), "mars") {
				t.Errorf("%+v", g)
			}
		}},
		{"unknown observation kind", `{"kind":"ObservationEvent","observation":{"kind":"TeleportObservation","content":[{"type":"text","text":"arrived"}],"is_error":true}}`, func(t *testing.T, d any) {
			o := d.(*ObservationEvent)
			if g := o.Observation.(*GenericObservation); g.Kind != "TeleportObservation" || !g.IsError || o.Output() != "arrived" {
				t.Errorf("%+v", g)
			}
		}},
		{"legacy bash", `{"kind":"ObservationEvent","observation":{"kind":"ExecuteBashObservation","content":[{"type":"text","text":"x"}],"metadata":{"exit_code":3}}}`, func(t *testing.T, d any) {
			if b := d.(*ObservationEvent).Observation.(*TerminalObservation); *b.Code() != 3 {
				t.Errorf("%+v", b)
			}
		}},
		{"every other action kind has a type", `{"kind":"ActionEvent","action":{"kind":"TaskAction","prompt":"p","subagent_type":"general-purpose"}}`, func(t *testing.T, d any) {
			for _, k := range []string{"TerminalAction", "FileEditorAction", "PlanningFileEditorAction", "TaskTrackerAction", "FinishAction", "ThinkAction", "MCPToolAction", "TaskAction", "DelegateAction", "BrowserClickAction", "BrowserTypeAction", "BrowserGetStateAction", "BrowserGetContentAction", "BrowserScrollAction", "BrowserGoBackAction", "BrowserListTabsAction", "BrowserSwitchTabAction", "BrowserCloseTabAction", "BrowserGetStorageAction", "BrowserSetStorageAction", "BrowserStartRecordingAction", "BrowserStopRecordingAction", "GlobAction", "GrepAction", "ApplyPatchAction", "ReadFileAction", "WriteFileAction", "EditAction", "ListDirectoryAction", "InvokeSkillAction", "SwitchLLMAction", "VisionInspectAction", "WorkflowAction", "ConsultTomAction", "SleeptimeComputeAction"} {
				if newAction(k) == nil {
					t.Errorf("%s has no type", k)
				}
				obs := strings.TrimSuffix(k, "Action") + "Observation"
				if strings.HasPrefix(k, "Browser") {
					obs = "BrowserObservation"
				}
				if newObservation(obs) == nil {
					t.Errorf("%s has no type", obs)
				}
			}
		}},
		{"reasoning item without encrypted content", `{"kind":"MessageEvent","llm_message":{"role":"assistant","content":[],"responses_reasoning_item":{"id":"rs_1","summary":["thought"],"encrypted_content":"gAAAAsecret","status":"completed"}}}`, func(t *testing.T, d any) {
			m := d.(*MessageEvent)
			if r := m.LLMMessage.ResponsesReasoningItem; r == nil || r.Summary[0] != "thought" {
				t.Errorf("%+v", r)
			}
		}},
		{"state update value", `{"kind":"ConversationStateUpdateEvent","key":"goal","value":{"active":true}}`, func(t *testing.T, d any) {
			if s := d.(*ConversationStateUpdateEvent); s.Key != "goal" || string(s.Value) != `{"active":true}` {
				t.Errorf("%+v", s)
			}
		}},
		{"unknown event", `{"kind":"FutureEvent","x":1}`, func(t *testing.T, d any) {
			if u := d.(*UnknownEvent); u.Kind != "FutureEvent" || string(u.Raw) != `{"kind":"FutureEvent","x":1}` {
				t.Errorf("%+v", u)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := mustDecode(t, []byte(tt.raw)).Detail()
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, d)
		})
	}
}

func TestDetailWrongTypesKeepsWhatItCan(t *testing.T) {
	ev := mustDecode(t, []byte(`{"kind":"ActionEvent","tool_name":"terminal","summary":"s","action":{"kind":"TerminalAction","command":42}}`))
	d, err := ev.Detail()
	if err == nil {
		t.Fatal("no error for a numeric command")
	}
	if a := d.(*ActionEvent); a.ToolName != "terminal" || a.Summary != "s" || a.ActionKind != "TerminalAction" {
		t.Errorf("%+v", a)
	}
}

func TestCompletionLogs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(upstream.Dir(t), "llm_logs", "*.json"))
	if len(files) == 0 {
		t.Fatal("no llm logs")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Carried as LLMCompletionLogEvent.log_data: a JSON string.
		quoted := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(string(data))
		raw := `{"kind":"LLMCompletionLogEvent","id":"l1","timestamp":"2025-09-04T19:43:45","source":"environment","filename":"` + filepath.Base(f) + `","log_data":"` + quoted + `","model_name":"litellm_proxy/anthropic/claude-sonnet-4-20250514","usage_id":"agent"}`
		ev := mustDecode(t, []byte(raw))
		if l := ev.Body.(*LLMCompletionLog); l.ModelName != "litellm_proxy/anthropic/claude-sonnet-4-20250514" || l.UsageID != "agent" {
			t.Errorf("%+v", l)
		}
		d, err := ev.Detail()
		if err != nil {
			t.Fatal(err)
		}
		log, err := d.(*LLMCompletionLogEvent).Log()
		if err != nil {
			t.Fatal(err)
		}
		if log.ContextWindow != 200000 || log.Cost <= 0 || log.LatencySec <= 0 || log.Time().Year() != 2025 || len(log.Messages) == 0 || len(log.Response) == 0 {
			t.Errorf("%s: %+v", f, log)
		}
	}
}
