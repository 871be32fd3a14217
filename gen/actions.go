package gen

import (
	"strconv"

	"ohwatch/internal/jsonx"
	"ohwatch/model"
)

// Action is an ActionEvent the builder wrote, with what its observation
// needs to know. Raw is the event's JSON.
type Action struct {
	Raw        []byte
	ID         string
	ToolName   string
	ToolCallID string

	command   string
	path      string
	oldStr    string
	newStr    string
	viewRange [2]int
	tasks     []model.Task
	message   string
}

// Security risks an LLM attaches to a tool call.
const (
	RiskUnknown = "UNKNOWN"
	RiskLow     = "LOW"
	RiskMedium  = "MEDIUM"
	RiskHigh    = "HIGH"
)

// actionEvent writes an ActionEvent. obj is the typed action object (nil
// when the call failed validation: the action is then absent) and args the
// raw arguments string the LLM sent.
func (b *Builder) actionEvent(r *Response, tool string, obj []byte, args, risk, summary string) Action {
	thought, reasoning := r.take()
	callID := randToolCallID(b.rng)
	id := b.begin("agent")
	b.buf = appendKey(b.buf, "thought")
	b.buf = appendTextList(b.buf, thought)
	b.buf = b.appendThinking(b.buf, reasoning)
	if obj != nil {
		b.buf = appendKey(b.buf, "action")
		b.buf = append(b.buf, obj...)
		b.obuf = obj[:0]
	}
	b.buf = appendStringField(b.buf, "tool_name", tool)
	b.buf = appendStringField(b.buf, "tool_call_id", callID)
	b.buf = appendKey(b.buf, "tool_call")
	b.buf = append(b.buf, '{')
	b.buf = appendStringField(b.buf, "id", callID)
	b.buf = appendStringField(b.buf, "name", tool)
	b.buf = appendStringField(b.buf, "arguments", args)
	b.buf = appendStringField(b.buf, "origin", "completion")
	b.buf = append(b.buf, '}')
	b.buf = appendStringField(b.buf, "llm_response_id", r.ID)
	b.buf = appendStringField(b.buf, "security_risk", risk)
	if summary != "" {
		b.buf = appendStringField(b.buf, "summary", summary)
	}
	raw := b.end(id, model.KindAction, viewEvent)
	return Action{Raw: raw, ID: id, ToolName: tool, ToolCallID: callID}
}

// observationEvent writes the ObservationEvent answering a; obj is the
// typed observation object.
func (b *Builder) observationEvent(a Action, obj []byte) []byte {
	id := b.begin("environment")
	b.buf = appendStringField(b.buf, "tool_name", a.ToolName)
	b.buf = appendStringField(b.buf, "tool_call_id", a.ToolCallID)
	b.buf = appendKey(b.buf, "observation")
	b.buf = append(b.buf, obj...)
	b.obuf = obj[:0]
	b.buf = appendStringField(b.buf, "action_id", a.ID)
	// SDK 1.43 writes the agent context's additions to every observation,
	// empty when there are none (openhands-sdk event/llm_convertible/
	// observation.py, ObservationEvent.extended_content).
	n := len(b.buf)
	b.buf = appendKey(b.buf, "extended_content")
	b.buf = append(b.buf, '[', ']')
	b.outOfContext = len(b.buf) - n
	return b.end(id, model.KindObservation, viewEvent)
}

// obj starts a nested action or observation object in the builder's second
// scratch buffer (the event buffer is busy once begin runs); actionEvent
// and observationEvent hand the buffer back once they have copied it.
func (b *Builder) obj() []byte { return append(b.obuf[:0], '{') }

func closeObj(dst []byte, kind string) []byte {
	dst = appendStringField(dst, "kind", kind)
	return append(dst, '}')
}

// Terminal is a terminal tool call running cmd; timeout (seconds, 0 for
// none) is the soft timeout the model asked for.
func (b *Builder) Terminal(r *Response, cmd string, timeout int, summary, risk string) Action {
	o := b.obj()
	o = appendStringField(o, "command", cmd)
	o = appendBoolField(o, "is_input", false)
	if timeout > 0 {
		o = appendFloatField(o, "timeout", float64(timeout))
	}
	o = appendBoolField(o, "reset", false)
	o = closeObj(o, "TerminalAction")
	args := newArgs().str("command", cmd)
	if timeout > 0 {
		args.int("timeout", timeout)
	}
	args.str("summary", summary).str("security_risk", risk)
	a := b.actionEvent(r, "terminal", o, args.String(), risk, summary)
	a.command = cmd
	return a
}

// TerminalResult is the TerminalObservation of a: the command's output and
// exit code, with the metadata the agent-server's shell reports.
func (b *Builder) TerminalResult(a Action, output string, exitCode int) []byte {
	code := int64(exitCode)
	o := b.obj()
	o = appendKey(o, "content")
	o = appendTextList(o, output)
	o = appendBoolField(o, "is_error", false)
	o = appendStringField(o, "command", a.command)
	o = appendIntField(o, "exit_code", code)
	o = appendBoolField(o, "timeout", false)
	o = appendKey(o, "metadata")
	o = append(o, '{')
	o = appendIntField(o, "exit_code", code)
	o = appendIntField(o, "pid", -1)
	o = appendStringField(o, "username", b.env.Username)
	o = appendStringField(o, "hostname", b.env.Hostname)
	o = appendStringField(o, "working_dir", b.env.WorkingDir)
	o = appendStringField(o, "py_interpreter_path", "/openhands/micromamba/envs/openhands/bin/python")
	o = appendStringField(o, "prefix", "")
	o = appendStringField(o, "suffix", "\n[The command completed with exit code "+strconv.Itoa(exitCode)+".]")
	o = append(o, '}')
	o = appendStringField(o, "full_output_save_dir", b.persistenceDir()+"/observations")
	o = closeObj(o, "TerminalObservation")
	return b.observationEvent(a, o)
}

// persistenceDir is where the agent-server keeps this conversation.
func (b *Builder) persistenceDir() string {
	return "/workspace/conversations/" + hexID(b.convID)
}

// ViewFile is a file_editor view of path; lines [from, to] when to > 0.
func (b *Builder) ViewFile(r *Response, path string, from, to int, summary string) Action {
	o := b.obj()
	o = appendStringField(o, "command", "view")
	o = appendStringField(o, "path", path)
	args := newArgs().str("command", "view").str("path", path)
	if to > 0 {
		o = appendKey(o, "view_range")
		o = append(o, '[')
		o = strconv.AppendInt(o, int64(from), 10)
		o = append(o, ',')
		o = strconv.AppendInt(o, int64(to), 10)
		o = append(o, ']')
		args.intPair("view_range", from, to)
	}
	o = closeObj(o, "FileEditorAction")
	args.str("summary", summary).str("security_risk", RiskLow)
	a := b.actionEvent(r, "file_editor", o, args.String(), RiskLow, summary)
	a.command, a.path, a.viewRange = "view", path, [2]int{from, to}
	return a
}

// ViewFileResult answers a file view with content shown through `cat -n`
// (only the requested range, if any).
func (b *Builder) ViewFileResult(a Action, content string) []byte {
	k := viewKey{path: a.path, content: content, from: a.viewRange[0], to: a.viewRange[1]}
	list, ok := b.views[k]
	if !ok {
		first := 1
		if a.viewRange[1] > 0 {
			content, first = lineRange(content, a.viewRange[0], a.viewRange[1])
		}
		text := "Here's the result of running `cat -n` on " + a.path + ":\n" + CatN(content, first)
		list = appendTextList(make([]byte, 0, len(text)+len(text)/8+64), text)
		if b.views == nil {
			b.views = make(map[viewKey][]byte)
		}
		if a.viewRange[1] == 0 && len(b.views) < maxCached {
			b.views[k] = list
		}
	}
	return b.editorResult(a, list, true, nil, nil)
}

// viewKey identifies a rendered file view. A long conversation views the
// same few file versions again and again, so the rendered JSON of whole-file
// views is cached (ranged views vary too much to be worth it).
type viewKey struct {
	path, content string
	from, to      int
}

// maxCached bounds each of the builder's render caches.
const maxCached = 2048

// ViewDirResult answers a view of a directory with its listing (one path
// per line) and the number of hidden entries left out.
func (b *Builder) ViewDirResult(a Action, listing string, hidden int) []byte {
	text := "Here's the files and directories up to 2 levels deep in " + a.path +
		", excluding hidden items:\n" + listing + "\n\n" + strconv.Itoa(hidden) +
		" hidden files/directories in this directory are excluded. You can use 'ls -la " +
		a.path + "' to see them."
	return b.editorResult(a, appendTextList(nil, text), true, nil, nil)
}

// CreateFile is a file_editor create of path with text.
func (b *Builder) CreateFile(r *Response, path, text, summary string) Action {
	o := b.obj()
	o = appendStringField(o, "command", "create")
	o = appendStringField(o, "path", path)
	o = appendStringField(o, "file_text", text)
	o = closeObj(o, "FileEditorAction")
	args := newArgs().str("command", "create").str("path", path).str("file_text", text).
		str("summary", summary).str("security_risk", RiskLow)
	a := b.actionEvent(r, "file_editor", o, args.String(), RiskLow, summary)
	a.command, a.path, a.newStr = "create", path, text
	return a
}

// CreateFileResult answers a create.
func (b *Builder) CreateFileResult(a Action) []byte {
	return b.editorResult(a, appendTextList(nil, "File created successfully at: "+a.path), false, nil, &a.newStr)
}

// StrReplace is a file_editor str_replace of oldStr by newStr in path.
func (b *Builder) StrReplace(r *Response, path, oldStr, newStr, summary string) Action {
	o := b.obj()
	o = appendStringField(o, "command", "str_replace")
	o = appendStringField(o, "path", path)
	o = appendStringField(o, "old_str", oldStr)
	o = appendStringField(o, "new_str", newStr)
	o = closeObj(o, "FileEditorAction")
	args := newArgs().str("command", "str_replace").str("path", path).str("old_str", oldStr).
		str("new_str", newStr).str("summary", summary).str("security_risk", RiskLow)
	a := b.actionEvent(r, "file_editor", o, args.String(), RiskLow, summary)
	a.command, a.path, a.oldStr, a.newStr = "str_replace", path, oldStr, newStr
	return a
}

// StrReplaceResult answers a str_replace applied to before (the whole
// file), with the edited snippet and both versions for a diff. It returns
// the event and the file after the edit.
func (b *Builder) StrReplaceResult(a Action, before string) ([]byte, string) {
	after, line := replaceOnce(before, a.oldStr, a.newStr)
	snippet, first := lineRange(after, line-4, line+countLines(a.newStr)+3)
	text := "The file " + a.path + " has been edited. Here's the result of running `cat -n` on a snippet of " +
		a.path + ":\n" + CatN(snippet, first) +
		"Review the changes and make sure they are as expected. Edit the file again if necessary."
	return b.editorResult(a, appendTextList(nil, text), true, &before, &after), after
}

// editorResult writes a FileEditorObservation; content is its rendered
// content list.
func (b *Builder) editorResult(a Action, content []byte, prevExist bool, oldContent, newContent *string) []byte {
	o := b.obj()
	o = appendKey(o, "content")
	o = append(o, content...)
	o = appendBoolField(o, "is_error", false)
	o = appendStringField(o, "command", a.command)
	o = appendStringField(o, "path", a.path)
	o = appendBoolField(o, "prev_exist", prevExist)
	if oldContent != nil {
		o = b.appendCachedString(appendKey(o, "old_content"), *oldContent)
	}
	if newContent != nil {
		o = b.appendCachedString(appendKey(o, "new_content"), *newContent)
	}
	o = closeObj(o, "FileEditorObservation")
	return b.observationEvent(a, o)
}

// appendCachedString appends a JSON string whose escaped form may be
// cached: whole file contents recur as the same few versions.
func (b *Builder) appendCachedString(dst []byte, s string) []byte {
	if esc, ok := b.escaped[s]; ok {
		return append(dst, esc...)
	}
	esc := jsonx.AppendString(nil, s, 0)
	if b.escaped == nil {
		b.escaped = make(map[string][]byte)
	}
	if len(b.escaped) < maxCached {
		b.escaped[s] = esc
	}
	return append(dst, esc...)
}

// Plan is a task_tracker plan: it replaces the whole task list.
func (b *Builder) Plan(r *Response, tasks []model.Task, summary string) Action {
	list := append([]model.Task(nil), tasks...)
	o := b.obj()
	o = appendStringField(o, "command", "plan")
	o = appendKey(o, "task_list")
	o = appendTaskList(o, list)
	o = closeObj(o, "TaskTrackerAction")
	args := newArgs().str("command", "plan").tasks("task_list", list).
		str("summary", summary).str("security_risk", RiskLow)
	a := b.actionEvent(r, "task_tracker", o, args.String(), RiskLow, summary)
	a.command, a.tasks = "plan", list
	return a
}

// PlanResult answers a plan by echoing the list it set.
func (b *Builder) PlanResult(a Action) []byte {
	o := b.obj()
	o = appendKey(o, "content")
	o = appendTextList(o, "Task list has been updated with "+strconv.Itoa(len(a.tasks))+" item(s).")
	o = appendBoolField(o, "is_error", false)
	o = appendStringField(o, "command", "plan")
	o = appendKey(o, "task_list")
	o = appendTaskList(o, a.tasks)
	o = closeObj(o, "TaskTrackerObservation")
	return b.observationEvent(a, o)
}

// ViewTasks is a task_tracker view: it asks for the current list.
func (b *Builder) ViewTasks(r *Response, summary string) Action {
	o := b.obj()
	o = appendStringField(o, "command", "view")
	o = append(o, `,"task_list":[]`...)
	o = closeObj(o, "TaskTrackerAction")
	args := newArgs().str("command", "view").str("summary", summary).str("security_risk", RiskLow)
	a := b.actionEvent(r, "task_tracker", o, args.String(), RiskLow, summary)
	a.command = "view"
	return a
}

// ViewTasksResult answers a view with the current list, rendered as the
// tool renders it for the LLM.
func (b *Builder) ViewTasksResult(a Action, tasks []model.Task) []byte {
	text := "No task list found. Use the \"plan\" command to create one."
	if len(tasks) > 0 {
		text = "# Task List\n"
		for i, t := range tasks {
			icon := "⏳"
			switch t.Status {
			case "in_progress":
				icon = "🔄"
			case "done":
				icon = "✅"
			}
			text += "\n" + strconv.Itoa(i+1) + ". " + icon + " " + t.Title + "\n"
			if t.Notes != "" {
				text += "   " + t.Notes + "\n"
			}
		}
		text = text[:len(text)-1]
	}
	o := b.obj()
	o = appendKey(o, "content")
	o = appendTextList(o, text)
	o = appendBoolField(o, "is_error", false)
	o = appendStringField(o, "command", "view")
	o = appendKey(o, "task_list")
	o = appendTaskList(o, tasks)
	o = closeObj(o, "TaskTrackerObservation")
	return b.observationEvent(a, o)
}

// Think is a think tool call: reasoning logged as an action.
func (b *Builder) Think(r *Response, thought, summary string) Action {
	o := b.obj()
	o = appendStringField(o, "thought", thought)
	o = closeObj(o, "ThinkAction")
	args := newArgs().str("thought", thought).str("summary", summary)
	return b.actionEvent(r, "think", o, args.String(), RiskUnknown, summary)
}

// ThinkResult answers a think call.
func (b *Builder) ThinkResult(a Action) []byte {
	o := b.obj()
	o = appendKey(o, "content")
	o = appendTextList(o, "Your thought has been logged.")
	o = appendBoolField(o, "is_error", false)
	o = closeObj(o, "ThinkObservation")
	return b.observationEvent(a, o)
}

// Finish is the finish tool call that ends the task with message.
func (b *Builder) Finish(r *Response, message, summary string) Action {
	o := b.obj()
	o = appendStringField(o, "message", message)
	o = closeObj(o, "FinishAction")
	args := newArgs().str("message", message).str("summary", summary)
	a := b.actionEvent(r, "finish", o, args.String(), RiskUnknown, summary)
	a.message = message
	return a
}

// FinishResult answers a finish call by echoing its message.
func (b *Builder) FinishResult(a Action) []byte {
	o := b.obj()
	o = appendKey(o, "content")
	o = appendTextList(o, a.message)
	o = appendBoolField(o, "is_error", false)
	o = closeObj(o, "FinishObservation")
	return b.observationEvent(a, o)
}

// BadCall is a tool call whose arguments failed validation: the action is
// absent and an AgentErrorEvent (see AgentError) takes the observation's
// place.
func (b *Builder) BadCall(r *Response, tool, args string) Action {
	return b.actionEvent(r, tool, nil, args, RiskUnknown, "")
}

// AgentError is the AgentErrorEvent for a, matched by tool_call_id; the
// classification is a retryable agent_action error, after which the agent
// carries on.
func (b *Builder) AgentError(a Action, message string) []byte {
	id := b.begin("agent")
	b.buf = appendStringField(b.buf, "tool_name", a.ToolName)
	b.buf = appendStringField(b.buf, "tool_call_id", a.ToolCallID)
	b.buf = appendStringField(b.buf, "error", message)
	b.buf = append(b.buf, `,"classification":{"kind":"agent_action","retryable":true,"user_action":"none"}`...)
	return b.end(id, model.KindAgentError, viewEvent)
}

// UserReject is the UserRejectObservation the agent-server writes when the
// user rejects a while it waits for confirmation: a never runs, and this
// takes its observation's place.
func (b *Builder) UserReject(a Action, reason string) []byte {
	id := b.begin("environment")
	b.buf = appendStringField(b.buf, "tool_name", a.ToolName)
	b.buf = appendStringField(b.buf, "tool_call_id", a.ToolCallID)
	b.buf = appendStringField(b.buf, "action_id", a.ID)
	b.buf = appendStringField(b.buf, "rejection_reason", reason)
	b.buf = appendStringField(b.buf, "rejection_source", "user")
	return b.end(id, model.KindUserReject, viewEvent)
}
