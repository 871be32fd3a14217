package model

import (
	"encoding/json"
	"strings"
)

// The typed observations of ObservationEvent.Observation (protocol §2.4),
// named after their upstream classes. Each embeds ObservationBase.

// ObservationBase holds the fields every observation has.
type ObservationBase struct {
	Content []Content `json:"content"`
	IsError bool      `json:"is_error"`
}

// Result returns the base fields; every typed observation has it.
func (b *ObservationBase) Result() *ObservationBase { return b }

// Text is the text of the content list.
func (b *ObservationBase) Text() string { return ContentText(b.Content) }

// CmdOutputMetadata is what the terminal reports about a command.
type CmdOutputMetadata struct {
	ExitCode          *int   `json:"exit_code,omitempty"`
	PID               int    `json:"pid,omitempty"`
	Username          string `json:"username,omitempty"`
	Hostname          string `json:"hostname,omitempty"`
	WorkingDir        string `json:"working_dir,omitempty"`
	PyInterpreterPath string `json:"py_interpreter_path,omitempty"`
	Prefix            string `json:"prefix,omitempty"`
	Suffix            string `json:"suffix,omitempty"`
}

// TerminalObservation is a command's result (also the legacy
// ExecuteBashObservation). ExitCode -1 means a soft timeout.
type TerminalObservation struct {
	ObservationBase
	Command           *string           `json:"command,omitempty"`
	ExitCode          *int              `json:"exit_code,omitempty"`
	Timeout           bool              `json:"timeout,omitempty"`
	Metadata          CmdOutputMetadata `json:"metadata"`
	FullOutputSaveDir string            `json:"full_output_save_dir,omitempty"`
}

// Code returns the exit code, from exit_code or else metadata.exit_code.
func (t *TerminalObservation) Code() *int {
	if t.ExitCode != nil {
		return t.ExitCode
	}
	return t.Metadata.ExitCode
}

// FileEditorObservation is a file editor result, with the old and new
// content when the file changed (also PlanningFileEditorObservation).
type FileEditorObservation struct {
	ObservationBase
	Command    string  `json:"command"`
	Path       *string `json:"path,omitempty"`
	PrevExist  bool    `json:"prev_exist"`
	OldContent *string `json:"old_content,omitempty"`
	NewContent *string `json:"new_content,omitempty"`
}

// TaskTrackerObservation echoes the whole task list.
type TaskTrackerObservation struct {
	ObservationBase
	Command  string `json:"command"`
	TaskList []Task `json:"task_list"`
}

// FinishObservation echoes the finish message.
type FinishObservation struct{ ObservationBase }

// ThinkObservation acknowledges a thought.
type ThinkObservation struct{ ObservationBase }

// MCPToolObservation is an MCP tool's result.
type MCPToolObservation struct {
	ObservationBase
	ToolName string `json:"tool_name"`
}

// ClientToolObservation is a client-defined tool's result.
type ClientToolObservation struct{ ObservationBase }

// TaskObservation reports a sub-agent task.
type TaskObservation struct {
	ObservationBase
	TaskID   string `json:"task_id"`
	Subagent string `json:"subagent"`
	Status   string `json:"status"`
}

// DelegateObservation reports a delegation.
type DelegateObservation struct {
	ObservationBase
	Command string `json:"command"`
}

// BrowserObservation is a browser tool's result; ScreenshotData is base64
// and may be large.
type BrowserObservation struct {
	ObservationBase
	ScreenshotData    string `json:"screenshot_data,omitempty"`
	FullOutputSaveDir string `json:"full_output_save_dir,omitempty"`
}

// GlobObservation lists the files a pattern matched.
type GlobObservation struct {
	ObservationBase
	Files      []string `json:"files"`
	Pattern    string   `json:"pattern"`
	SearchPath string   `json:"search_path"`
	Truncated  bool     `json:"truncated"`
}

// GrepObservation lists the matches of a search.
type GrepObservation struct {
	ObservationBase
	Matches        []string `json:"matches"`
	Pattern        string   `json:"pattern"`
	SearchPath     string   `json:"search_path"`
	IncludePattern string   `json:"include_pattern,omitempty"`
	Truncated      bool     `json:"truncated"`
}

// ApplyPatchObservation reports a patch application.
type ApplyPatchObservation struct {
	ObservationBase
	Message string          `json:"message"`
	Fuzz    int             `json:"fuzz"`
	Commit  json.RawMessage `json:"commit,omitempty"`
}

// ReadFileObservation holds a file read (gemini preset).
type ReadFileObservation struct {
	ObservationBase
	FilePath    string          `json:"file_path"`
	FileContent string          `json:"file_content"`
	IsTruncated bool            `json:"is_truncated"`
	LinesShown  json.RawMessage `json:"lines_shown,omitempty"`
	TotalLines  *int            `json:"total_lines,omitempty"`
}

// WriteFileObservation reports a file write (gemini preset).
type WriteFileObservation struct {
	ObservationBase
	FilePath   string  `json:"file_path,omitempty"`
	IsNewFile  bool    `json:"is_new_file"`
	OldContent *string `json:"old_content,omitempty"`
	NewContent *string `json:"new_content,omitempty"`
}

// EditObservation reports an edit (gemini preset).
type EditObservation struct {
	ObservationBase
	FilePath         string  `json:"file_path,omitempty"`
	IsNewFile        bool    `json:"is_new_file"`
	ReplacementsMade int     `json:"replacements_made"`
	OldContent       *string `json:"old_content,omitempty"`
	NewContent       *string `json:"new_content,omitempty"`
}

// FileEntry is one directory entry.
type FileEntry struct {
	Name         string `json:"name"`
	Path         string `json:"path"`
	IsDirectory  bool   `json:"is_directory"`
	Size         int64  `json:"size"`
	ModifiedTime string `json:"modified_time,omitempty"`
}

// ListDirectoryObservation lists a directory (gemini preset).
type ListDirectoryObservation struct {
	ObservationBase
	DirPath     string      `json:"dir_path,omitempty"`
	Entries     []FileEntry `json:"entries"`
	TotalCount  int         `json:"total_count"`
	IsTruncated bool        `json:"is_truncated"`
}

// InvokeSkillObservation reports an invoked skill.
type InvokeSkillObservation struct {
	ObservationBase
	SkillName string `json:"skill_name"`
}

// SwitchLLMObservation reports an LLM switch.
type SwitchLLMObservation struct {
	ObservationBase
	ProfileName string `json:"profile_name"`
	Reason      string `json:"reason,omitempty"`
	ActiveModel string `json:"active_model,omitempty"`
}

// VisionInspectObservation holds a vision model's answer.
type VisionInspectObservation struct {
	ObservationBase
	ImageIndex  int    `json:"image_index"`
	Question    string `json:"question"`
	ProfileName string `json:"profile_name,omitempty"`
	Model       string `json:"model,omitempty"`
	BaseURL     string `json:"base_url,omitempty"`
	Answer      string `json:"answer,omitempty"`
}

// WorkflowObservation reports a workflow run.
type WorkflowObservation struct {
	ObservationBase
	Name   string `json:"name"`
	Status string `json:"status"`
}

// ConsultTomObservation holds the theory-of-mind agent's suggestions.
type ConsultTomObservation struct {
	ObservationBase
	Suggestions string   `json:"suggestions"`
	Confidence  *float64 `json:"confidence,omitempty"`
	Reasoning   string   `json:"reasoning,omitempty"`
}

// SleeptimeComputeObservation reports a sleep-time compute run.
type SleeptimeComputeObservation struct {
	ObservationBase
	Message           string `json:"message"`
	SessionsProcessed int    `json:"sessions_processed"`
}

// GenericObservation is an observation kind without a type here: its kind,
// its base fields and its raw JSON.
type GenericObservation struct {
	ObservationBase
	Kind string          `json:"-"`
	Raw  json.RawMessage `json:"-"`
}

// newObservation returns an empty typed observation for a nested kind, or
// nil when the kind has no type here.
func newObservation(kind string) any {
	switch kind {
	case "TerminalObservation", "ExecuteBashObservation":
		return &TerminalObservation{}
	case "FileEditorObservation", "PlanningFileEditorObservation", "StrReplaceEditorObservation":
		return &FileEditorObservation{}
	case "TaskTrackerObservation":
		return &TaskTrackerObservation{}
	case "FinishObservation":
		return &FinishObservation{}
	case "ThinkObservation":
		return &ThinkObservation{}
	case "MCPToolObservation":
		return &MCPToolObservation{}
	case "ClientToolObservation":
		return &ClientToolObservation{}
	case "TaskObservation":
		return &TaskObservation{}
	case "DelegateObservation":
		return &DelegateObservation{}
	case "BrowserObservation":
		return &BrowserObservation{}
	case "GlobObservation":
		return &GlobObservation{}
	case "GrepObservation":
		return &GrepObservation{}
	case "ApplyPatchObservation":
		return &ApplyPatchObservation{}
	case "ReadFileObservation":
		return &ReadFileObservation{}
	case "WriteFileObservation":
		return &WriteFileObservation{}
	case "EditObservation":
		return &EditObservation{}
	case "ListDirectoryObservation":
		return &ListDirectoryObservation{}
	case "InvokeSkillObservation":
		return &InvokeSkillObservation{}
	case "SwitchLLMObservation":
		return &SwitchLLMObservation{}
	case "VisionInspectObservation":
		return &VisionInspectObservation{}
	case "WorkflowObservation":
		return &WorkflowObservation{}
	case "ConsultTomObservation":
		return &ConsultTomObservation{}
	case "SleeptimeComputeObservation":
		return &SleeptimeComputeObservation{}
	}
	return nil
}

// decodeNestedObservation decodes the raw observation object by its kind.
func decodeNestedObservation(raw json.RawMessage) (kind string, obs any, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	kind = nestedKindOf(raw)
	obs = newObservation(kind)
	if obs == nil {
		g := &GenericObservation{Kind: kind, Raw: raw}
		return kind, g, decodeJSON(raw, g)
	}
	return kind, obs, decodeJSON(raw, obs)
}

// isBrowserKind reports whether an action kind is one of the browser_*
// actions.
func isBrowserKind(kind string) bool {
	return strings.HasPrefix(kind, "Browser") && strings.HasSuffix(kind, "Action")
}
