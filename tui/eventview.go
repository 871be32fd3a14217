package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"ohwatch/model"
	"ohwatch/theme"
)

// maxViewLines caps a rendered text block (a huge command output or system
// prompt); the raw view and the pager have the rest.
const maxViewLines = 2000

// eventView renders one event for reading: the message text, the command
// and its output, a file edit as a unified diff, a task list, a thought.
// File edits come from the model's typed payload (Event.Detail and
// model.FileEditOf); the rest is read from the raw JSON, so any kind (even
// one this version does not know) is shown. Every string goes through
// model.Sanitize.
type eventView struct {
	ev     model.Event
	index  int
	styles theme.Styles
	out    []string
	// change is the file edit the event describes, read by the model
	// (model.FileEditOf over Event.Detail); hasChange is false otherwise.
	change    model.FileChange
	hasChange bool
	// result is the observation that answered an action, nil if unknown.
	result      *model.Event
	resultIndex int
	// md is a message's text, rendered as markdown by the inspector
	// (markdown.go) at the place it would have gone in out.
	md *markdownBlock
}

// obj is a decoded JSON object.
type obj = map[string]any

// renderEvent returns the rendered lines of event ev (not yet wrapped);
// result, when not nil, is the observation that answered it (at index
// resultIndex).
func renderEvent(ev model.Event, index int, s theme.Styles, result *model.Event, resultIndex int) []string {
	lines, _ := renderEventMarkdown(ev, index, s, result, resultIndex, false)
	return lines
}

// renderEventMarkdown is renderEvent; with markdown, a message's text is
// left out of the lines and returned as a block to render as markdown.
func renderEventMarkdown(ev model.Event, index int, s theme.Styles, result *model.Event, resultIndex int,
	markdown bool) ([]string, *markdownBlock) {
	v := &eventView{ev: ev, index: index, styles: s, result: result, resultIndex: resultIndex}
	if markdown {
		v.md = &markdownBlock{at: -1}
	}
	v.build()
	if v.md != nil && v.md.at < 0 {
		v.md = nil
	}
	return v.out, v.md
}

// terminalResult adds, after a terminal action's command, the output and
// exit code of the observation that answered it (model.TerminalPair), so
// the inspector shows command and output together.
func (v *eventView) terminalResult() {
	if v.result == nil {
		return
	}
	run, err := model.TerminalPair(v.ev, *v.result)
	if err != nil && run.Output == "" {
		return
	}
	title := "Output (" + ordinal(v.resultIndex)
	if run.ExitCode != nil {
		title += ", exit " + itoa(*run.ExitCode)
	}
	if run.Timeout {
		title += ", timed out"
	}
	v.section(title+")", run.Output)
}

func (v *eventView) build() {
	s := v.styles
	ev := v.ev
	head := s.Bold.Render(ordinal(v.index)+" "+model.SanitizeLine(ev.Kind)) + s.Muted.Render(" · "+model.SanitizeLine(ev.Source))
	if !ev.Time.IsZero() {
		head += s.Muted.Render(" · " + ev.Time.UTC().Format("2006-01-02 15:04:05.000") + " UTC")
	}
	v.out = append(v.out, head, s.Muted.Render("id "+model.SanitizeLine(ev.ID)))
	if sum := model.SanitizeLine(ev.Summary); sum != "" {
		v.out = append(v.out, s.Accent.Render(sum))
	}
	if u, ok := ev.Body.(*model.Unknown); ok && u.Reason != "" {
		v.out = append(v.out, s.Error.Render("malformed: "+model.SanitizeLine(u.Reason)))
	}
	v.blank()
	if detail, err := ev.Detail(); err == nil {
		v.change, v.hasChange = model.FileEditOf(detail)
	}
	var o obj
	if err := json.Unmarshal(ev.Raw, &o); err != nil {
		v.out = append(v.out, s.Error.Render("not a JSON object: "+model.SanitizeLine(err.Error())))
		v.text(string(ev.Raw))
		return
	}
	switch ev.Kind {
	case model.KindMessage:
		v.message(o)
	case model.KindAction:
		v.action(o)
	case model.KindObservation:
		v.observation(o)
	case model.KindUserReject:
		v.field("tool", str(o, "tool_name"))
		v.field("rejected by", str(o, "rejection_source"))
		v.section("Reason", str(o, "rejection_reason"))
	case model.KindAgentError:
		v.field("tool", str(o, "tool_name"))
		if c, ok := o["classification"].(obj); ok {
			v.field("classification", str(c, "kind"))
		}
		v.section("Error", str(o, "error"))
	case model.KindConversationError, model.KindServerError:
		v.field("code", str(o, "code"))
		v.section("Detail", str(o, "detail"))
	case model.KindSystemPrompt:
		v.systemPrompt(o)
	default:
		v.generic(o)
	}
}

// message renders a MessageEvent: its text, reasoning and critic result.
func (v *eventView) message(o obj) {
	msg, _ := o["llm_message"].(obj)
	v.field("role", str(msg, "role"))
	if sender := str(o, "sender"); sender != "" {
		v.field("sender", sender)
	}
	text := contentText(msg["content"])
	if v.md != nil && strings.TrimSpace(text) != "" {
		v.blank()
		v.out = append(v.out, v.styles.PaneFocus.Render("Message"))
		v.md.text, v.md.at = strings.Join(capLines(strings.Split(model.Sanitize(text), "\n")), "\n"), len(v.out)
	} else {
		v.section("Message", text)
	}
	v.reasoning(msg)
	if ext := contentText(o["extended_content"]); ext != "" {
		v.section("Extended content", ext)
	}
	v.critic(o)
}

// action renders an ActionEvent by its nested action kind.
func (v *eventView) action(o obj) {
	v.field("tool", str(o, "tool_name"))
	v.field("risk", str(o, "security_risk"))
	// The action itself comes first; the reasoning behind it follows.
	defer func() {
		if t := contentText(o["thought"]); t != "" {
			v.section("Thought", t)
		}
		v.reasoning(o)
		v.critic(o)
	}()
	a, ok := o["action"].(obj)
	if !ok {
		v.out = append(v.out, v.styles.Error.Render("no parsed action (the tool call could not be parsed)"))
		if tc, ok := o["tool_call"].(obj); ok {
			v.section("Tool call arguments", str(tc, "arguments"))
		}
		return
	}
	v.field("action", str(a, "kind"))
	if v.hasChange {
		v.field("command", str(a, "command"))
		v.fileChange()
		return
	}
	switch str(a, "kind") {
	case "TerminalAction", "ExecuteBashAction":
		v.section("Command", "$ "+str(a, "command"))
		v.terminalResult()
	case "FileEditorAction", "PlanningFileEditorAction", "StrReplaceEditorAction":
		v.fileEdit(a)
	case "TaskTrackerAction":
		v.field("command", str(a, "command"))
		if list, ok := a["task_list"].([]any); ok && (len(list) > 0 || str(a, "command") == "plan") {
			v.tasks(list)
		}
	case "ThinkAction":
		v.section("Thought", str(a, "thought"))
	case "FinishAction":
		v.section("Finish", str(a, "message"))
	default:
		v.generic(a)
	}
}

// fileEdit renders a file editor action that changes nothing (a view).
func (v *eventView) fileEdit(a obj) {
	v.field("command", str(a, "command"))
	v.field("path", str(a, "path"))
}

// fileChange renders the event's file edit as a unified diff.
func (v *eventView) fileChange() {
	c := v.change
	v.field("path", c.Path)
	if c.Created {
		v.field("file", "created")
	}
	if c.Partial {
		v.field("diff of", "the replaced fragment")
	}
	v.diff(c.Path, c.Old, c.New)
}

// observation renders an ObservationEvent by its nested kind.
func (v *eventView) observation(o obj) {
	v.field("tool", str(o, "tool_name"))
	ob, _ := o["observation"].(obj)
	v.field("observation", str(ob, "kind"))
	if b, _ := ob["is_error"].(bool); b {
		v.out = append(v.out, v.styles.Error.Render("is_error: true"))
	}
	if v.hasChange {
		v.field("command", str(ob, "command"))
		v.fileChange()
		return
	}
	switch str(ob, "kind") {
	case "TerminalObservation", "ExecuteBashObservation":
		if c := str(ob, "command"); c != "" {
			v.section("Command", "$ "+c)
		}
		if ec, ok := ob["exit_code"]; ok && ec != nil {
			v.field("exit code", fmt.Sprint(ec))
		} else if md, ok := ob["metadata"].(obj); ok && md["exit_code"] != nil {
			v.field("exit code", fmt.Sprint(md["exit_code"]))
		}
		if t, _ := ob["timeout"].(bool); t {
			v.out = append(v.out, v.styles.Warn.Render("timed out"))
		}
		v.section("Output", contentText(ob["content"]))
	case "FileEditorObservation", "PlanningFileEditorObservation", "StrReplaceEditorObservation":
		v.field("command", str(ob, "command"))
		v.field("path", str(ob, "path"))
		v.section("Output", contentText(ob["content"]))
	case "TaskTrackerObservation":
		v.field("command", str(ob, "command"))
		v.tasks(ob["task_list"])
	default:
		v.section("Output", contentText(ob["content"]))
	}
}

// systemPrompt renders the tools list and the prompt text.
func (v *eventView) systemPrompt(o obj) {
	if tools, ok := o["tools"].([]any); ok {
		var names []string
		for _, t := range tools {
			if to, ok := t.(obj); ok {
				names = append(names, str(to, "title"))
			}
		}
		v.field("tools", strings.Join(names, ", "))
	}
	if sp, ok := o["system_prompt"].(obj); ok {
		v.section("System prompt", str(sp, "text"))
	}
	if dc, ok := o["dynamic_context"].(obj); ok {
		v.section("Dynamic context", str(dc, "text"))
	}
}

// generic renders the scalar fields of an object, then its nested values
// as indented JSON: a fallback that shows everything.
func (v *eventView) generic(o obj) {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch val := o[k].(type) {
		case obj, []any:
			b, _ := json.MarshalIndent(val, "", "  ")
			v.section(k, string(b))
		case string:
			if strings.Contains(val, "\n") {
				v.section(k, val)
			} else {
				v.field(k, val)
			}
		default:
			v.field(k, fmt.Sprint(val))
		}
	}
}

// reasoning renders reasoning content and thinking blocks, if any.
func (v *eventView) reasoning(o obj) {
	r := str(o, "reasoning_content")
	if r != "" {
		v.section("Reasoning", r)
	}
	if blocks, ok := o["thinking_blocks"].([]any); ok {
		for _, b := range blocks {
			// Anthropic repeats the reasoning as a thinking block: show it once.
			if bo, ok := b.(obj); ok && str(bo, "thinking") != "" && str(bo, "thinking") != r {
				v.section("Thinking", str(bo, "thinking"))
			}
		}
	}
}

// critic renders a critic result's score and message.
func (v *eventView) critic(o obj) {
	c, ok := o["critic_result"].(obj)
	if !ok {
		return
	}
	v.field("critic score", fmt.Sprint(c["score"]))
	if msg := str(c, "message"); msg != "" {
		v.section("Critic", msg)
	}
}

// tasks renders a task list as a checklist.
func (v *eventView) tasks(list any) {
	items, _ := list.([]any)
	v.blank()
	v.out = append(v.out, v.styles.PaneFocus.Render("Tasks"))
	if len(items) == 0 {
		v.out = append(v.out, v.styles.Muted.Render("(empty)"))
	}
	g := v.styles.Glyphs
	for _, it := range items {
		t, _ := it.(obj)
		glyph := g.TaskTodo
		switch str(t, "status") {
		case "in_progress":
			glyph = g.TaskDoing
		case "done":
			glyph = g.TaskDone
		}
		v.out = append(v.out, glyph+" "+model.SanitizeLine(str(t, "title")))
		if n := str(t, "notes"); n != "" {
			v.out = append(v.out, "    "+v.styles.Muted.Render(model.SanitizeLine(n)))
		}
	}
}

// diff renders old → new as a unified diff, coloured by line.
func (v *eventView) diff(path, before, after string) {
	v.blank()
	v.out = append(v.out, v.styles.PaneFocus.Render("Diff"))
	// Snippets (old_str/new_str) rarely end in a newline; without one the
	// diff would say "No newline at end of file" on every edit.
	before, after = withNewline(before), withNewline(after)
	name := strings.TrimPrefix(path, "/")
	d := udiff.Unified("a/"+name, "b/"+name, before, after)
	if d == "" {
		v.out = append(v.out, v.styles.Muted.Render("(no change)"))
		return
	}
	for _, line := range capLines(strings.Split(strings.TrimSuffix(model.Sanitize(d), "\n"), "\n")) {
		line = expandTabs(line)
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			v.out = append(v.out, v.styles.Bold.Render(line))
		case strings.HasPrefix(line, "+"):
			v.out = append(v.out, v.styles.DiffAdd.Render(line))
		case strings.HasPrefix(line, "-"):
			v.out = append(v.out, v.styles.DiffDel.Render(line))
		case strings.HasPrefix(line, "@@"):
			v.out = append(v.out, v.styles.DiffHunk.Render(line))
		default:
			v.out = append(v.out, line)
		}
	}
}

// field adds a "name: value" line; empty values are left out.
func (v *eventView) field(name, value string) {
	if value == "" {
		return
	}
	v.out = append(v.out, v.styles.Muted.Render(model.SanitizeLine(name)+": ")+model.SanitizeLine(value))
}

// section adds a titled block of multi-line text.
func (v *eventView) section(title, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	v.blank()
	v.out = append(v.out, v.styles.PaneFocus.Render(model.SanitizeLine(title)))
	v.text(text)
}

// text adds sanitised multi-line text, tabs expanded.
func (v *eventView) text(text string) {
	for _, line := range capLines(strings.Split(model.Sanitize(text), "\n")) {
		v.out = append(v.out, expandTabs(line))
	}
}

// blank adds an empty line unless the last one already is.
func (v *eventView) blank() {
	if n := len(v.out); n > 0 && v.out[n-1] != "" {
		v.out = append(v.out, "")
	}
}

// capLines keeps the first maxViewLines lines and says how many were cut.
func capLines(lines []string) []string {
	if len(lines) <= maxViewLines {
		return lines
	}
	cut := len(lines) - maxViewLines
	return append(lines[:maxViewLines:maxViewLines], fmt.Sprintf("… %d more lines (r: raw JSON, o: pager)", cut))
}

// expandTabs replaces tabs with spaces, since a tab's width depends on the
// column it lands in and would break the pane's width arithmetic.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	return strings.ReplaceAll(s, "\t", "    ")
}

// str reads a string field of a decoded object; "" when absent.
func str(o obj, key string) string {
	if o == nil {
		return ""
	}
	s, _ := o[key].(string)
	return s
}

// contentText joins the text items of a content list ([TextContent|
// ImageContent]); images are named, never dumped.
func contentText(v any) string {
	items, ok := v.([]any)
	if !ok {
		if s, ok := v.(string); ok {
			return s
		}
		return ""
	}
	var parts []string
	for _, it := range items {
		c, ok := it.(obj)
		if !ok {
			continue
		}
		switch str(c, "type") {
		case "text":
			parts = append(parts, str(c, "text"))
		case "image":
			n := 0
			if urls, ok := c["image_urls"].([]any); ok {
				n = len(urls)
			}
			parts = append(parts, fmt.Sprintf("[%d image(s)]", n))
		}
	}
	return strings.Join(parts, "\n")
}

// withNewline ends non-empty text with a newline.
func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
