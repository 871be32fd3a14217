package conversation

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
)

// eventView renders one event for reading: the message text, the command
// and its output, a file edit as a unified diff, a task list, a thought.
// It reads the event's typed payload (Event.Detail), as export does: the
// kinds and nested actions worth a layout of their own get one, every
// other typed payload is shown field by field from its type (eventfields.go),
// and a kind or nested action without a type here from its raw members in
// the order sent. Every string goes through sanitize.Text.
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
	// analysis is the security analyzer's verdict on the action's batch
	// (a SecurityAnalysisEvent after it), nil if none was found.
	analysis *model.SecurityAnalysis
	// md is a message's text, rendered as markdown by the inspector
	// (markdown.go) at the place it would have gone in out.
	md *markdownBlock
}

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
	return renderEventWith(ev, index, s, result, resultIndex, nil, markdown)
}

// renderEventWith is renderEventMarkdown with the security analyzer's
// verdict on the action, shown beside the LLM's own risk.
func renderEventWith(ev model.Event, index int, s theme.Styles, result *model.Event, resultIndex int,
	analysis *model.SecurityAnalysis, markdown bool) ([]string, *markdownBlock) {
	v := &eventView{ev: ev, index: index, styles: s, result: result, resultIndex: resultIndex, analysis: analysis}
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
	title := "Output (" + tui.Ordinal(v.resultIndex)
	if run.ExitCode != nil {
		title += ", exit " + Itoa(*run.ExitCode)
	}
	if run.Timeout {
		title += ", timed out"
	}
	v.section(title+")", run.Output)
}

// build renders the header (kind, source, time, id, parent, summary, what
// is malformed), then the payload by its type.
func (v *eventView) build() {
	s := v.styles
	ev := v.ev
	head := s.Bold.Render(tui.Ordinal(v.index)+" "+sanitize.Line(ev.Kind)) + s.Muted.Render(" · "+sanitize.Line(ev.Source))
	if !ev.Time.IsZero() {
		head += s.Muted.Render(" · " + ev.Time.UTC().Format("2006-01-02 15:04:05.000") + " UTC")
	}
	v.out = append(v.out, head, s.Muted.Render("id "+sanitize.Line(ev.ID)))
	if ev.ParentID != "" {
		v.out = append(v.out, s.Muted.Render("parent "+sanitize.Line(ev.ParentID)))
	}
	if sum := sanitize.Line(ev.Summary); sum != "" {
		v.out = append(v.out, s.Accent.Render(sum))
	}
	reason, unknown := model.IsUnknown(ev)
	if reason != "" {
		v.out = append(v.out, s.Error.Render("malformed: "+sanitize.Line(reason)))
	}
	v.blank()
	detail, err := ev.Detail()
	if _, untyped := detail.(*model.UnknownEvent); err != nil || untyped {
		// Decode accepts only objects, but an event may be built by hand.
		var probe struct{}
		if perr := json.Unmarshal(ev.Raw, &probe); perr != nil {
			v.out = append(v.out, s.Error.Render("not a JSON object: "+sanitize.Line(perr.Error())))
			v.text(string(ev.Raw))
			return
		}
	}
	if err != nil && !unknown {
		// The lean decoder found nothing wrong, the full payload did: say
		// so, and show what decoded.
		v.out = append(v.out, s.Error.Render("payload: "+sanitize.Line(err.Error())))
	}
	if err == nil {
		v.change, v.hasChange = model.FileEditOf(detail)
	}
	switch d := detail.(type) {
	case *model.MessageEvent:
		v.message(d)
	case *model.ActionEvent:
		v.action(d)
	case *model.ObservationEvent:
		v.observation(d)
	case *model.UserRejectObservation:
		v.field("tool", d.ToolName)
		v.field("rejected by", d.RejectionSource)
		v.section("Reason", d.RejectionReason)
	case *model.AgentErrorEvent:
		v.field("tool", d.ToolName)
		if d.Classification != nil {
			v.field("classification", d.Classification.Kind)
		}
		v.section("Error", d.Error)
	case *model.ConversationErrorEvent:
		if d.Classification != nil {
			v.field("classification", d.Classification.Kind)
		}
		v.codeDetail(d.Code, d.Detail)
	case *model.AskUserRequestEvent, *model.AskUserResponseEvent, *model.SecurityAnalysisEvent,
		*model.WarningEvent, *model.ConversationIterationLimitEvent:
		v.newerKind(d)
	case *model.ServerErrorEvent:
		v.codeDetail(d.Code, d.Detail)
	case *model.SystemPromptEvent:
		v.systemPrompt(d)
	case *model.UnknownEvent:
		// What the header above shows is not repeated.
		v.members(d.Raw, "kind", "id", "timestamp", "source", "parent_id")
	default:
		v.fields(d)
	}
}

// codeDetail renders an error's code and detail.
func (v *eventView) codeDetail(code, detail string) {
	v.field("code", code)
	v.section("Detail", detail)
}

// message renders a MessageEvent: its text, reasoning and critic result.
func (v *eventView) message(d *model.MessageEvent) {
	msg := &d.LLMMessage
	v.field("role", msg.Role)
	v.field("sender", d.Sender)
	v.markdownSection("Message", contentText(msg.Content))
	v.reasoning(msg.ReasoningContent, msg.ThinkingBlocks)
	v.section("Extended content", contentText(d.ExtendedContent))
	v.critic(d.CriticResult)
}

// action renders an ActionEvent by its typed action.
func (v *eventView) action(d *model.ActionEvent) {
	v.field("tool", d.ToolName)
	v.risk(d.SecurityRisk)
	// The action itself comes first; the reasoning behind it follows.
	defer func() {
		v.markdownSection("Thought", contentText(d.Thought))
		v.reasoning(d.ReasoningContent, d.ThinkingBlocks)
		v.critic(d.CriticResult)
	}()
	if d.Action == nil {
		v.out = append(v.out, v.styles.Error.Render("no parsed action (the tool call could not be parsed)"))
		if d.ToolCall != nil {
			v.section("Tool call arguments", d.ToolCall.Arguments)
		}
		return
	}
	v.field("action", d.ActionKind)
	if v.hasChange {
		if fe, ok := d.Action.(*model.FileEditorAction); ok {
			v.field("command", fe.Command)
		}
		v.fileChange()
		return
	}
	switch a := d.Action.(type) {
	case *model.TerminalAction:
		v.section("Command", "$ "+a.Command)
		v.terminalResult()
	case *model.FileEditorAction:
		v.field("command", a.Command)
		v.field("path", a.Path)
	case *model.TaskTrackerAction:
		v.field("command", a.Command)
		if a.TaskList != nil && (len(a.TaskList) > 0 || a.Command == "plan") {
			v.tasks(a.TaskList)
		}
	case *model.ThinkAction:
		v.markdownSection("Thought", a.Thought)
	case *model.FinishAction:
		v.markdownSection("Finish", a.Message)
	case *model.GenericAction:
		v.members(a.Raw, "kind")
	case *model.ClientAction:
		v.members(a.Raw, "kind")
	default:
		v.fields(a)
	}
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

// observation renders an ObservationEvent by its typed observation.
func (v *eventView) observation(d *model.ObservationEvent) {
	v.field("tool", d.ToolName)
	v.field("observation", d.ObservationKind)
	var base *model.ObservationBase
	if r, ok := d.Observation.(interface{ Result() *model.ObservationBase }); ok {
		base = r.Result()
	}
	if base != nil && base.IsError {
		v.out = append(v.out, v.styles.Error.Render("is_error: true"))
	}
	if v.hasChange {
		if fe, ok := d.Observation.(*model.FileEditorObservation); ok {
			v.field("command", fe.Command)
		}
		v.fileChange()
		return
	}
	switch o := d.Observation.(type) {
	case *model.TerminalObservation:
		if o.Command != nil && *o.Command != "" {
			v.section("Command", "$ "+*o.Command)
		}
		if code := o.Code(); code != nil {
			v.field("exit code", Itoa(*code))
		}
		if o.Timeout {
			v.out = append(v.out, v.styles.Warn.Render("timed out"))
		}
		v.section("Output", contentText(o.Content))
	case *model.FileEditorObservation:
		v.field("command", o.Command)
		if o.Path != nil {
			v.field("path", *o.Path)
		}
		v.section("Output", contentText(o.Content))
	case *model.TaskTrackerObservation:
		v.field("command", o.Command)
		v.tasks(o.TaskList)
	default:
		if base != nil {
			v.section("Output", contentText(base.Content))
		}
	}
}

// systemPrompt renders the tools offered and the prompt text.
func (v *eventView) systemPrompt(d *model.SystemPromptEvent) {
	if d.Tools != nil {
		names := make([]string, len(d.Tools))
		for i, t := range d.Tools {
			names[i] = t.Title
		}
		v.field("tools", strings.Join(names, ", "))
	}
	v.section("System prompt", d.SystemPrompt.Text)
	if d.DynamicContext != nil {
		v.section("Dynamic context", d.DynamicContext.Text)
	}
}

// reasoning renders reasoning content and thinking blocks, if any.
func (v *eventView) reasoning(r string, blocks []model.ThinkingBlock) {
	v.section("Reasoning", r)
	for _, b := range blocks {
		// Anthropic repeats the reasoning as a thinking block: show it once.
		if b.Thinking != "" && b.Thinking != r {
			v.section("Thinking", b.Thinking)
		}
	}
}

// critic renders a critic result's score and message.
func (v *eventView) critic(c *model.CriticResult) {
	if c == nil {
		return
	}
	v.field("critic score", strconv.FormatFloat(c.Score, 'g', -1, 64))
	v.section("Critic", c.Message)
}

// tasks renders a task list as a checklist.
func (v *eventView) tasks(items []model.Task) {
	v.blank()
	v.out = append(v.out, v.styles.PaneFocus.Render("Tasks"))
	if len(items) == 0 {
		v.out = append(v.out, v.styles.Muted.Render("(empty)"))
	}
	g := v.styles.Glyphs
	for _, t := range items {
		glyph := g.TaskTodo
		switch t.Status {
		case "in_progress":
			glyph = g.TaskDoing
		case "done":
			glyph = g.TaskDone
		}
		v.out = append(v.out, glyph+" "+sanitize.Line(t.Title))
		if t.Notes != "" {
			v.out = append(v.out, "    "+v.styles.Muted.Render(sanitize.Line(t.Notes)))
		}
	}
}

// diff renders old → new as a unified diff, coloured by line.
func (v *eventView) diff(path, before, after string) {
	v.blank()
	v.out = append(v.out, v.styles.PaneFocus.Render("Diff"))
	// Snippets (old_str/new_str) rarely end in a newline; without one the
	// diff would say "No newline at end of file" on every edit.
	before, after = tui.WithNewline(before), tui.WithNewline(after)
	name := strings.TrimPrefix(path, "/")
	d := udiff.Unified("a/"+name, "b/"+name, before, after)
	if d == "" {
		v.out = append(v.out, v.styles.Muted.Render("(no change)"))
		return
	}
	for _, line := range tui.CapLines(strings.Split(strings.TrimSuffix(sanitize.Text(d), "\n"), "\n")) {
		line = tui.ExpandTabs(line)
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

// markdownSection adds a titled block of text the agent or user wrote in
// markdown (a message, the finish summary, a thought): rendered as
// markdown in the inspector, which renders one such block per event, and
// as plain text elsewhere or for a second block.
func (v *eventView) markdownSection(title, text string) {
	if v.md == nil || v.md.at >= 0 || strings.TrimSpace(text) == "" {
		v.section(title, text)
		return
	}
	v.blank()
	v.out = append(v.out, v.styles.PaneFocus.Render(sanitize.Line(title)))
	v.md.text, v.md.at = strings.Join(tui.CapLines(strings.Split(sanitize.Text(text), "\n")), "\n"), len(v.out)
}

// field adds a "name: value" line; empty values are left out.
func (v *eventView) field(name, value string) {
	if value == "" {
		return
	}
	v.out = append(v.out, v.styles.Muted.Render(sanitize.Line(name)+": ")+sanitize.Line(value))
}

// section adds a titled block of multi-line text.
func (v *eventView) section(title, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	v.blank()
	v.out = append(v.out, v.styles.PaneFocus.Render(sanitize.Line(title)))
	v.text(text)
}

// text adds sanitised multi-line text, tabs expanded.
func (v *eventView) text(text string) {
	for _, line := range tui.CapLines(strings.Split(sanitize.Text(text), "\n")) {
		v.out = append(v.out, tui.ExpandTabs(line))
	}
}

// blank adds an empty line unless the last one already is.
func (v *eventView) blank() {
	if n := len(v.out); n > 0 && v.out[n-1] != "" {
		v.out = append(v.out, "")
	}
}

// contentText joins the text items of a content list ([TextContent|
// ImageContent]); images are counted, never dumped.
func contentText(items []model.Content) string {
	var parts []string
	for _, c := range items {
		switch c.Type {
		case "text":
			parts = append(parts, c.Text)
		case "image":
			parts = append(parts, fmt.Sprintf("[%d image(s)]", len(c.ImageURLs)))
		}
	}
	return strings.Join(parts, "\n")
}
