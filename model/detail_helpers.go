package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Accessors the inspector and the exporter use to render the common
// payloads without knowing every type.

// TerminalRun is a terminal command with its result.
type TerminalRun struct {
	Command  string
	Output   string
	ExitCode *int // nil when unknown; -1 is a soft timeout
	Timeout  bool
}

// TerminalPair reads the command of a terminal ActionEvent and the output
// and exit code of its ObservationEvent (either may be a zero Event when
// missing). Text is as sent: sanitise before display.
func TerminalPair(action, observation Event) (TerminalRun, error) {
	var run TerminalRun
	var errs []error
	if len(action.Raw) > 0 {
		d, err := action.Detail()
		errs = append(errs, err)
		a, ok := d.(*ActionEvent)
		if !ok {
			return run, fmt.Errorf("%s is not an ActionEvent", action.Kind)
		}
		t, ok := a.Action.(*TerminalAction)
		if !ok {
			return run, fmt.Errorf("action %s is not a terminal command", a.ActionKind)
		}
		run.Command = t.Command
	}
	if len(observation.Raw) > 0 {
		d, err := observation.Detail()
		errs = append(errs, err)
		o, ok := d.(*ObservationEvent)
		if !ok {
			return run, fmt.Errorf("%s is not an ObservationEvent", observation.Kind)
		}
		t, ok := o.Observation.(*TerminalObservation)
		if !ok {
			return run, fmt.Errorf("observation %s is not a terminal result", o.ObservationKind)
		}
		run.Output = t.Text()
		run.ExitCode = t.Code()
		run.Timeout = t.Timeout
		if run.Command == "" && t.Command != nil {
			run.Command = *t.Command
		}
	}
	return run, errors.Join(errs...)
}

// FileChange is a file's content before and after an edit, enough to
// render a diff.
type FileChange struct {
	Path string
	Old  string
	New  string
	// Created is true when the file did not exist before.
	Created bool
	// Partial is true when Old and New are the replaced fragments (from an
	// action) rather than whole files (from an observation).
	Partial bool
}

// FileEditOf returns the change a payload describes: a file editor,
// write-file or edit observation (whole contents), or a file editor
// str_replace/create, write-file or edit action (the fragments). ok is
// false for anything else, including a view.
func FileEditOf(detail any) (change FileChange, ok bool) {
	switch d := detail.(type) {
	case *ObservationEvent:
		return FileEditOf(d.Observation)
	case *ActionEvent:
		return FileEditOf(d.Action)
	case *FileEditorObservation:
		if d.OldContent == nil && d.NewContent == nil {
			return change, false
		}
		return FileChange{Path: deref(d.Path), Old: deref(d.OldContent), New: deref(d.NewContent), Created: !d.PrevExist}, true
	case *WriteFileObservation:
		return FileChange{Path: d.FilePath, Old: deref(d.OldContent), New: deref(d.NewContent), Created: d.IsNewFile}, true
	case *EditObservation:
		return FileChange{Path: d.FilePath, Old: deref(d.OldContent), New: deref(d.NewContent), Created: d.IsNewFile}, true
	case *FileEditorAction:
		switch d.Command {
		case "create":
			return FileChange{Path: d.Path, New: deref(d.FileText), Created: true}, true
		case "str_replace", "insert":
			return FileChange{Path: d.Path, Old: deref(d.OldStr), New: deref(d.NewStr), Partial: true}, true
		}
	case *WriteFileAction:
		return FileChange{Path: d.FilePath, New: d.Content}, true
	case *EditAction:
		return FileChange{Path: d.FilePath, Old: d.OldString, New: d.NewString, Partial: true}, true
	}
	return change, false
}

// deref reads an optional string, "" when absent.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// CompletionLog is the JSON string an LLMCompletionLogEvent carries in
// log_data: one LLM call's request, response, cost and latency.
type CompletionLog struct {
	Messages      json.RawMessage `json:"messages"`
	Tools         json.RawMessage `json:"tools,omitempty"`
	Kwargs        json.RawMessage `json:"kwargs,omitempty"`
	ContextWindow int64           `json:"context_window"`
	Response      json.RawMessage `json:"response"`
	Cost          float64         `json:"cost"`
	Timestamp     float64         `json:"timestamp"` // unix seconds
	LatencySec    float64         `json:"latency_sec"`
}

// Time is when the call was logged.
func (c *CompletionLog) Time() time.Time { return UnixFloatTime(c.Timestamp) }

// DecodeCompletionLog decodes the log_data of an LLMCompletionLogEvent (or
// a completion log file).
func DecodeCompletionLog(data []byte) (*CompletionLog, error) {
	c := &CompletionLog{}
	if err := decodeJSON(data, c); err != nil {
		return nil, fmt.Errorf("completion log: %w", err)
	}
	return c, nil
}

// Log decodes the event's log_data.
func (l *LLMCompletionLogEvent) Log() (*CompletionLog, error) {
	return DecodeCompletionLog([]byte(l.LogData))
}
