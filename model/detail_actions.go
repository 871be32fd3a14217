package model

import (
	"encoding/json"
	"strings"

	"ohwatch/internal/jsonx"
)

// The typed actions of ActionEvent.Action (protocol §2.4), named after
// their upstream classes.

// TerminalAction runs a shell command (also the legacy ExecuteBashAction).
type TerminalAction struct {
	Command string   `json:"command"`
	IsInput bool     `json:"is_input,omitempty"`
	Timeout *float64 `json:"timeout,omitempty"`
	Reset   bool     `json:"reset,omitempty"`
}

// FileEditorAction views or edits a file (also used for
// PlanningFileEditorAction, which has the same fields).
type FileEditorAction struct {
	Command    string  `json:"command"` // view | create | str_replace | insert | undo_edit
	Path       string  `json:"path"`
	FileText   *string `json:"file_text,omitempty"`
	OldStr     *string `json:"old_str,omitempty"`
	NewStr     *string `json:"new_str,omitempty"`
	InsertLine *int    `json:"insert_line,omitempty"`
	ViewRange  []int   `json:"view_range,omitempty"`
}

// TaskTrackerAction views or replaces (plan) the task list.
type TaskTrackerAction struct {
	Command  string `json:"command"`
	TaskList []Task `json:"task_list"`
}

// FinishAction ends the turn with a message.
type FinishAction struct {
	Message string `json:"message"`
}

// ThinkAction logs a thought.
type ThinkAction struct {
	Thought string `json:"thought"`
}

// MCPToolAction calls an MCP tool with raw arguments (the tool name is the
// event's ToolName).
type MCPToolAction struct {
	Data json.RawMessage `json:"data"`
}

// ClientAction calls a client-defined tool (kind ClientAction_<tool>).
type ClientAction struct {
	Tool string
	Raw  json.RawMessage
}

// TaskAction launches a sub-agent.
type TaskAction struct {
	Description  string `json:"description,omitempty"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type,omitempty"`
	Resume       string `json:"resume,omitempty"`
}

// DelegateAction spawns or delegates to sub-agents.
type DelegateAction struct {
	Command    string            `json:"command"`
	IDs        []string          `json:"ids,omitempty"`
	AgentTypes []string          `json:"agent_types,omitempty"`
	Tasks      map[string]string `json:"tasks,omitempty"`
}

// BrowserAction is any of the 14 browser_* actions; Kind says which
// (BrowserNavigateAction, BrowserClickAction, …) and only its fields are set.
type BrowserAction struct {
	Kind              string          `json:"kind"`
	URL               string          `json:"url,omitempty"`
	NewTab            bool            `json:"new_tab,omitempty"`
	Index             *int            `json:"index,omitempty"`
	Text              string          `json:"text,omitempty"`
	Direction         string          `json:"direction,omitempty"`
	TabID             string          `json:"tab_id,omitempty"`
	IncludeScreenshot bool            `json:"include_screenshot,omitempty"`
	ExtractLinks      bool            `json:"extract_links,omitempty"`
	StartFromChar     int             `json:"start_from_char,omitempty"`
	StorageState      json.RawMessage `json:"storage_state,omitempty"`
}

// GlobAction finds files by pattern.
type GlobAction struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

// GrepAction searches file contents.
type GrepAction struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
	Include string `json:"include,omitempty"`
}

// ApplyPatchAction applies a patch.
type ApplyPatchAction struct {
	Patch string `json:"patch"`
}

// ReadFileAction reads a file (gemini preset).
type ReadFileAction struct {
	FilePath string `json:"file_path"`
	Offset   *int   `json:"offset,omitempty"`
	Limit    *int   `json:"limit,omitempty"`
}

// WriteFileAction writes a whole file (gemini preset).
type WriteFileAction struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

// EditAction replaces text in a file (gemini preset).
type EditAction struct {
	FilePath             string `json:"file_path"`
	OldString            string `json:"old_string"`
	NewString            string `json:"new_string"`
	ExpectedReplacements int    `json:"expected_replacements,omitempty"`
}

// ListDirectoryAction lists a directory (gemini preset).
type ListDirectoryAction struct {
	DirPath   string `json:"dir_path"`
	Recursive bool   `json:"recursive,omitempty"`
}

// InvokeSkillAction invokes a skill by name.
type InvokeSkillAction struct {
	Name string `json:"name"`
}

// SwitchLLMAction switches the LLM profile.
type SwitchLLMAction struct {
	ProfileName string `json:"profile_name"`
	Reason      string `json:"reason,omitempty"`
}

// VisionInspectAction asks a vision model about an image.
type VisionInspectAction struct {
	ImageIndex  int    `json:"image_index"`
	Question    string `json:"question"`
	ProfileName string `json:"profile_name,omitempty"`
}

// WorkflowAction runs a workflow script.
type WorkflowAction struct {
	Name           string `json:"name"`
	Script         string `json:"script"`
	MaxConcurrency int    `json:"max_concurrency,omitempty"`
}

// ConsultTomAction consults the theory-of-mind agent.
type ConsultTomAction struct {
	Reason         string `json:"reason"`
	UseUserMessage bool   `json:"use_user_message,omitempty"`
	CustomQuery    string `json:"custom_query,omitempty"`
}

// SleeptimeComputeAction runs sleep-time compute (no fields).
type SleeptimeComputeAction struct{}

// GenericAction is an action kind without a type here: its kind and raw
// JSON.
type GenericAction struct {
	Kind string
	Raw  json.RawMessage
}

// newAction returns an empty typed action for a nested kind, or nil when
// the kind has no type here.
func newAction(kind string) any {
	switch kind {
	case "TerminalAction", "ExecuteBashAction":
		return &TerminalAction{}
	case "FileEditorAction", "PlanningFileEditorAction", "StrReplaceEditorAction":
		return &FileEditorAction{}
	case "TaskTrackerAction":
		return &TaskTrackerAction{}
	case "FinishAction":
		return &FinishAction{}
	case "ThinkAction":
		return &ThinkAction{}
	case "MCPToolAction":
		return &MCPToolAction{}
	case "TaskAction":
		return &TaskAction{}
	case "DelegateAction":
		return &DelegateAction{}
	case "GlobAction":
		return &GlobAction{}
	case "GrepAction":
		return &GrepAction{}
	case "ApplyPatchAction":
		return &ApplyPatchAction{}
	case "ReadFileAction":
		return &ReadFileAction{}
	case "WriteFileAction":
		return &WriteFileAction{}
	case "EditAction":
		return &EditAction{}
	case "ListDirectoryAction":
		return &ListDirectoryAction{}
	case "InvokeSkillAction":
		return &InvokeSkillAction{}
	case "SwitchLLMAction":
		return &SwitchLLMAction{}
	case "VisionInspectAction":
		return &VisionInspectAction{}
	case "WorkflowAction":
		return &WorkflowAction{}
	case "ConsultTomAction":
		return &ConsultTomAction{}
	case "SleeptimeComputeAction":
		return &SleeptimeComputeAction{}
	}
	if isBrowserKind(kind) {
		return &BrowserAction{}
	}
	return nil
}

// decodeNestedAction decodes the raw action object by its kind.
func decodeNestedAction(raw json.RawMessage) (kind string, action any, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	kind = nestedKindOf(raw)
	if tool, ok := strings.CutPrefix(kind, "ClientAction_"); ok {
		return kind, &ClientAction{Tool: tool, Raw: raw}, nil
	}
	action = newAction(kind)
	if action == nil {
		return kind, &GenericAction{Kind: kind, Raw: raw}, nil
	}
	return kind, action, decodeJSON(raw, action)
}

// nestedKindOf reads the `kind` of a raw nested object.
func nestedKindOf(raw []byte) string {
	var r leanReader
	var kind string
	jsonx.EachField(raw, func(key, val []byte) bool {
		if string(key) == "kind" {
			kind = r.str(val, "kind")
		}
		return true
	})
	return kind
}
