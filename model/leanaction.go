package model

import (
	"fmt"
	"strconv"
	"strings"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// actionFields holds the value spans of a nested action or observation
// object that the lean bodies read.
type actionFields struct {
	kind, command, path, taskList, isError, exitCode, metadata, content, message, thought, toolName []byte
	// Targets named by the other actions, for summaries.
	filePath, dirPath, pattern, url, description, prompt, name []byte
}

// set stores the span of one member; unknown keys are ignored.
func (f *actionFields) set(key, val []byte) {
	switch string(key) {
	case "kind":
		f.kind = val
	case "command":
		f.command = val
	case "path":
		f.path = val
	case "task_list":
		f.taskList = val
	case "is_error":
		f.isError = val
	case "exit_code":
		f.exitCode = val
	case "metadata":
		f.metadata = val
	case "content":
		f.content = val
	case "message":
		f.message = val
	case "thought":
		f.thought = val
	case "tool_name":
		f.toolName = val
	case "file_path":
		f.filePath = val
	case "dir_path":
		f.dirPath = val
	case "pattern":
		f.pattern = val
	case "url":
		f.url = val
	case "description":
		f.description = val
	case "prompt":
		f.prompt = val
	case "name":
		f.name = val
	}
}

// isTerminalKind reports whether an action or observation kind belongs to
// the terminal tool, under its current or legacy name.
func isTerminalKind(kind string) bool {
	switch kind {
	case "TerminalAction", "TerminalObservation", "ExecuteBashAction", "ExecuteBashObservation":
		return true
	}
	return false
}

// decodeAction reads an ActionEvent.
func decodeAction(r *leanReader, f *topFields) (Body, string) {
	a := &Action{
		ToolName:      sanitize.Line(r.str(f.toolName, "tool_name")),
		ToolCallID:    r.str(f.toolCallID, "tool_call_id"),
		LLMResponseID: r.str(f.llmResponseID, "llm_response_id"),
		SecurityRisk:  sanitize.Line(r.str(f.securityRisk, "security_risk")),
	}
	if a.SecurityRisk == "" {
		a.SecurityRisk = "UNKNOWN"
	}
	summary := r.line(f.summary, "summary")
	var path string
	if obj := r.object(f.action, "action"); obj != nil {
		n := &f.nestedAction
		a.ActionKind = sanitize.Line(r.str(n.kind, "action.kind"))
		switch {
		case isTerminalKind(a.ActionKind):
			a.Command = r.line(n.command, "action.command")
		case a.ActionKind == "TaskTrackerAction":
			a.TaskCommand = sanitize.Line(r.str(n.command, "action.command"))
			if a.TaskCommand == "plan" {
				a.Plan = readTasks(r, n.taskList, "action.task_list")
				if a.Plan == nil {
					a.Plan = []Task{}
				}
			}
		case a.ActionKind == "FileEditorAction" || a.ActionKind == "PlanningFileEditorAction":
			path = joinSummary(sanitize.Line(r.str(n.command, "action.command")), r.line(n.path, "action.path"))
		default:
			path = actionTarget(r, a, n)
		}
	}
	if summary == "" {
		summary = actionFallbackSummary(a, path)
	}
	return a, summary
}

// actionTarget describes what the other actions act on, for a summary:
// "finish: <message>", "glob: *.go", "navigate: https://…", "read: /a.go".
func actionTarget(r *leanReader, a *Action, n *actionFields) string {
	label := a.ToolName
	if label == "" {
		label = a.ActionKind
	}
	var target string
	switch a.ActionKind {
	case "FinishAction":
		target = r.line(n.message, "action.message")
	case "ThinkAction":
		target = r.line(n.thought, "action.thought")
	case "TaskAction":
		if target = r.line(n.description, "action.description"); target == "" {
			target = r.line(n.prompt, "action.prompt")
		}
	case "ReadFileAction", "WriteFileAction", "EditAction":
		target = r.line(n.filePath, "action.file_path")
	case "ListDirectoryAction":
		target = r.line(n.dirPath, "action.dir_path")
	case "GlobAction", "GrepAction":
		target = r.line(n.pattern, "action.pattern")
	case "InvokeSkillAction", "WorkflowAction":
		target = r.line(n.name, "action.name")
	case "BrowserNavigateAction":
		target = r.line(n.url, "action.url")
	case "DelegateAction":
		target = sanitize.Line(r.str(n.command, "action.command"))
	}
	if target == "" {
		return ""
	}
	return joinSummary(label, target)
}

// actionFallbackSummary describes an action that came without the LLM's
// own summary: its command, path, plan or tool name.
func actionFallbackSummary(a *Action, path string) string {
	switch {
	case a.Command != "":
		return capLine("$ " + a.Command)
	case path != "":
		return path
	case a.TaskCommand == "plan":
		return "plan " + describeTasks(a.Plan)
	case a.TaskCommand != "":
		return a.ToolName + " " + a.TaskCommand
	case a.ToolName != "":
		if a.ActionKind == "" {
			return capLine(a.ToolName + " (call not parsed)")
		}
		return a.ToolName
	}
	return a.ActionKind
}

// decodeObservation reads an ObservationEvent.
func decodeObservation(r *leanReader, f *topFields) (Body, string) {
	o := &Observation{
		ToolName:   sanitize.Line(r.str(f.toolName, "tool_name")),
		ToolCallID: r.str(f.toolCallID, "tool_call_id"),
		ActionID:   r.str(f.actionID, "action_id"),
	}
	var first string
	if obj := r.object(f.observation, "observation"); obj != nil {
		n := &f.nestedObservation
		o.ObservationKind = sanitize.Line(r.str(n.kind, "observation.kind"))
		o.IsError = r.boolean(n.isError, "observation.is_error")
		first = firstText(r, n.content, "observation.content")
		if o.ToolName == "" {
			o.ToolName = sanitize.Line(r.str(n.toolName, "observation.tool_name"))
		}
		switch {
		case isTerminalKind(o.ObservationKind):
			if code, ok := r.integer(n.exitCode, "observation.exit_code"); ok {
				c := int(code)
				o.ExitCode = &c
			} else if md := r.object(n.metadata, "observation.metadata"); md != nil {
				o.ExitCode = metadataExitCode(r, md)
			}
		case o.ObservationKind == "TaskTrackerObservation":
			o.TaskCommand = sanitize.Line(r.str(n.command, "observation.command"))
			if arr := r.array(n.taskList, "observation.task_list"); arr != nil {
				o.TaskList = readTasks(r, arr, "observation.task_list")
				o.HasTaskList = true
			}
		}
	}
	return o, observationSummary(o, first)
}

// metadataExitCode reads metadata.exit_code of a terminal observation,
// which older observations carry instead of a top-level exit_code.
func metadataExitCode(r *leanReader, md []byte) *int {
	var code *int
	jsonx.EachField(md, func(key, val []byte) bool {
		if string(key) == "exit_code" {
			if n, ok := r.integer(val, "observation.metadata.exit_code"); ok {
				c := int(n)
				code = &c
			}
			return false
		}
		return true
	})
	return code
}

// observationSummary describes a tool result: "error: …" for a failure,
// the exit code of a terminal command, task counts for the task tracker,
// otherwise the first line of its output.
func observationSummary(o *Observation, first string) string {
	label := o.ToolName
	if label == "" {
		label = o.ObservationKind
	}
	switch {
	case o.IsError:
		return capLine("error: " + first)
	case isTerminalKind(o.ObservationKind) && o.ExitCode != nil:
		if *o.ExitCode == -1 {
			return joinSummary(label, "still running (exit -1)")
		}
		return joinSummary(label, "exit "+strconv.Itoa(*o.ExitCode))
	case o.ObservationKind == "TaskTrackerObservation" && o.HasTaskList:
		return describeTasks(o.TaskList)
	}
	return joinSummary(label, first)
}

// firstText returns the sanitised first line of the first text item of a
// content list ([TextContent|ImageContent]). It walks the items by hand and
// stops as soon as it has a line, so the rest of a long output is not
// scanned again.
func firstText(r *leanReader, content []byte, field string) string {
	arr := r.array(content, field)
	if arr == nil {
		return ""
	}
	images := 0
	for i := jsonx.SkipWS(arr, 1); i < len(arr) && arr[i] != ']'; {
		if arr[i] != '{' {
			r.mismatch(field+"[]", "object", arr[i:])
			return ""
		}
		text, isImage, end := contentItemLine(r, arr, i, field+"[]")
		if text != "" {
			return text
		}
		if isImage {
			images++
		}
		i = jsonx.SkipWS(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = jsonx.SkipWS(arr, i+1)
		}
	}
	if images > 0 {
		return fmt.Sprintf("[%d image(s)]", images)
	}
	return ""
}

// contentItemLine reads the content item object at arr[i]: the first line
// of its text, or whether it is an image. When it finds a line it returns
// at once, without the end of the item.
func contentItemLine(r *leanReader, arr []byte, i int, field string) (line string, isImage bool, end int) {
	i = jsonx.SkipWS(arr, i+1)
	for i < len(arr) && arr[i] == '"' {
		kEnd := jsonx.SkipString(arr, i)
		key := arr[i+1 : kEnd-1]
		vStart := jsonx.SkipWS(arr, jsonx.SkipWS(arr, kEnd)+1)
		switch string(key) {
		case "text":
			if arr[vStart] == '"' {
				if line = capLine(jsonx.UnquoteBody(arr[vStart+1:], lineByteLimit, true)); line != "" {
					return line, false, 0
				}
			} else if !absent(arr[vStart:]) {
				r.mismatch(field+".text", "string", arr[vStart:])
			}
		case "type":
			isImage = string(arr[vStart:min(vStart+7, len(arr))]) == `"image"`
		}
		i = jsonx.SkipWS(arr, jsonx.SkipValue(arr, vStart))
		if i < len(arr) && arr[i] == ',' {
			i = jsonx.SkipWS(arr, i+1)
		}
	}
	return "", isImage, i + 1 // past '}'
}

// readTasks reads a task-tracker list.
func readTasks(r *leanReader, v []byte, field string) []Task {
	arr := r.array(v, field)
	if arr == nil {
		return nil
	}
	tasks := []Task{}
	// Field names for type errors, built once per list.
	item, title, notes, status := field+"[]", field+"[].title", field+"[].notes", field+"[].status"
	jsonx.EachElement(arr, func(v []byte) bool {
		if v[0] != '{' {
			r.mismatch(item, "object", v)
			return false
		}
		var t Task
		jsonx.EachField(v, func(key, val []byte) bool {
			switch string(key) {
			case "title":
				t.Title = r.line(val, title)
			case "notes":
				t.Notes = r.text(val, notes)
			case "status":
				t.Status = sanitize.Line(r.str(val, status))
			}
			return true
		})
		tasks = append(tasks, t)
		return true
	})
	return tasks
}

// describeTasks describes a task list: "5 tasks: 2 done, 1 in progress, 2 todo".
func describeTasks(tasks []Task) string {
	var tally TaskTally
	for _, t := range tasks {
		tally.Add(t.Status)
	}
	done, doing, todo, other := tally.Done, tally.InProgress, tally.Todo, tally.Other
	noun := "tasks"
	if len(tasks) == 1 {
		noun = "task"
	}
	if len(tasks) == 0 {
		return "0 tasks"
	}
	parts := []string{}
	if done > 0 {
		parts = append(parts, fmt.Sprintf("%d done", done))
	}
	if doing > 0 {
		parts = append(parts, fmt.Sprintf("%d in progress", doing))
	}
	if todo > 0 {
		parts = append(parts, fmt.Sprintf("%d todo", todo))
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%d other", other))
	}
	return fmt.Sprintf("%d %s: %s", len(tasks), noun, strings.Join(parts, ", "))
}
