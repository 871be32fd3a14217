package gen

import "ohwatch/model"

// The system prompt and tool definitions below are abridged from upstream's
// (the real event is tens of KB); they keep the shape and the opening of
// each text so the event reads like the real thing at a few KB.

const systemPromptText = `You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.

<ROLE>
* Your primary role is to assist users by executing commands, modifying code, and solving technical problems effectively. You should be thorough, methodical, and prioritize quality over speed.
* If the user asks a question, like "why is X happening", don't try to fix the problem. Just give an answer to the question.
</ROLE>

<EFFICIENCY>
* Each action you take is somewhat expensive. Wherever possible, combine multiple actions into a single action, e.g. combine multiple bash commands into one, using sed and grep to edit/view multiple files at once.
* When exploring the codebase, use efficient tools like find, grep, and git commands with appropriate filters to minimize unnecessary operations.
</EFFICIENCY>

<FILE_SYSTEM_GUIDELINES>
* When a user provides a file path, do NOT assume it's relative to the current working directory. First explore the file system to locate the file before working on it.
* When making changes to files, modify the original file directly. Do NOT create multiple versions with different suffixes.
</FILE_SYSTEM_GUIDELINES>

<PROBLEM_SOLVING_WORKFLOW>
1. EXPLORATION: Thoroughly explore relevant files and understand the context before proposing solutions
2. ANALYSIS: Consider multiple approaches and select the most promising one
3. TESTING: For bug fixes, create tests to verify issues before implementing fixes
4. IMPLEMENTATION: Make focused, minimal changes to address the problem
5. VERIFICATION: Test your implementation thoroughly, including edge cases
</PROBLEM_SOLVING_WORKFLOW>

<SECURITY_RISK_ASSESSMENT>
Every tool call takes a security_risk argument: LOW for read-only actions, MEDIUM for changes confined to the workspace, HIGH for actions that delete data, rewrite history or reach outside the sandbox.
</SECURITY_RISK_ASSESSMENT>`

// toolDef is one ToolDefinition of the SystemPromptEvent.
type toolDef struct {
	kind, title, action, observation, description string
	readOnly, destructive, idempotent, openWorld  bool
	titleAnnotation                               bool
}

var defaultTools = []toolDef{
	{
		kind: "TerminalTool", title: "terminal", action: "TerminalAction", observation: "TerminalObservation",
		description: "Execute a bash command in the terminal within a persistent shell session.\n\n\n### Command Execution\n* One command at a time: You can only execute one bash command at a time. If you need to run multiple commands sequentially, use `&&` or `;` to chain them together.\n* Persistent session: Commands execute in a persistent shell session where environment variables, virtual environments, and working directory persist between commands.\n* Soft timeout: Commands have a soft timeout of 10 seconds, once that's reached, you have the option to continue or interrupt the command.\n\n### Long-running Commands\n* For commands that may run indefinitely, run them in the background and redirect output to a file, e.g. `python3 app.py > server.log 2>&1 &`.\n* If a bash command returns exit code `-1`, this means the process hit the soft timeout and is not yet finished.",
		destructive: true, openWorld: true, titleAnnotation: true,
	},
	{
		kind: "FileEditorTool", title: "file_editor", action: "FileEditorAction", observation: "FileEditorObservation",
		description: "Custom editing tool for viewing, creating and editing files in plain-text format\n* State is persistent across command calls and discussions with the user\n* If `path` is a text file, `view` displays the result of applying `cat -n`. If `path` is a directory, `view` lists non-hidden files and directories up to 2 levels deep\n* The `create` command cannot be used if the specified `path` already exists as a file\n* If a `command` generates a long output, it will be truncated and marked with `<response clipped>`\n* The `undo_edit` command will revert the last edit made to the file at `path`\n\nCRITICAL REQUIREMENTS FOR USING THIS TOOL:\n\n1. EXACT MATCHING: The `old_str` parameter must match EXACTLY one or more consecutive lines from the file, including all whitespace and indentation.\n2. UNIQUENESS: The `old_str` must uniquely identify a single instance in the file.",
		destructive: true, titleAnnotation: true,
	},
	{
		kind: "TaskTrackerTool", title: "task_tracker", action: "TaskTrackerAction", observation: "TaskTrackerObservation",
		description: "This tool provides structured task management capabilities for development workflows.\nIt enables systematic tracking of work items, progress monitoring, and efficient\norganization of complex development activities.\n\n## Application Guidelines\n\n1. Multi-phase development work - When projects involve multiple sequential or\n   parallel activities\n2. Work commencement - Update task status to in_progress before beginning\n   implementation. Maintain focus by limiting active work to one task\n3. Task completion - Update status to done and identify any additional work\n   that emerged during implementation",
		idempotent:  true, titleAnnotation: true,
	},
	{
		kind: "FinishTool", title: "finish", action: "FinishAction", observation: "FinishObservation",
		description: "Signals the completion of the current task or conversation.\n\nUse this tool when:\n- You have successfully completed the user's requested task\n- You cannot proceed further due to technical limitations or missing information\n\nThe message should include:\n- A clear summary of actions taken and their results\n- Any next steps for the user\n",
		readOnly:    true, idempotent: true, titleAnnotation: true,
	},
	{
		kind: "ThinkTool", title: "think", action: "ThinkAction", observation: "ThinkObservation",
		description: "Use the tool to think about something. It will not obtain new information or make any changes to the repository, but just log the thought. Use it when complex reasoning or brainstorming is needed.",
		readOnly:    true, idempotent: true,
	},
}

// SystemPrompt is the SystemPromptEvent that opens every conversation:
// the system prompt and the tool definitions the agent was given.
func (b *Builder) SystemPrompt() []byte {
	id := b.begin("agent")
	b.buf = appendKey(b.buf, "system_prompt")
	b.buf = appendText(b.buf, systemPromptText)
	b.buf = appendKey(b.buf, "tools")
	b.buf = append(b.buf, '[')
	for i, t := range defaultTools {
		if i > 0 {
			b.buf = append(b.buf, ',')
		}
		b.buf = append(b.buf, '{')
		b.buf = appendStringField(b.buf, "description", t.description)
		b.buf = appendStringField(b.buf, "action_type", t.action)
		b.buf = appendStringField(b.buf, "observation_type", t.observation)
		b.buf = appendKey(b.buf, "annotations")
		b.buf = append(b.buf, '{')
		if t.titleAnnotation {
			b.buf = appendStringField(b.buf, "title", t.title)
		}
		b.buf = appendBoolField(b.buf, "readOnlyHint", t.readOnly)
		b.buf = appendBoolField(b.buf, "destructiveHint", t.destructive)
		b.buf = appendBoolField(b.buf, "idempotentHint", t.idempotent)
		b.buf = appendBoolField(b.buf, "openWorldHint", t.openWorld)
		b.buf = append(b.buf, '}')
		b.buf = appendStringField(b.buf, "kind", t.kind)
		b.buf = appendStringField(b.buf, "title", t.title)
		b.buf = append(b.buf, '}')
	}
	b.buf = append(b.buf, ']')
	// The system prompt is part of the LLM's context, but its weight is
	// already counted in systemTokens.
	return b.end(id, model.KindSystemPrompt, treeEvent)
}
