package model

import (
	"fmt"
	"strconv"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// decodeMessage reads a MessageEvent.
func decodeMessage(r *leanReader, f *topFields) (Body, string) {
	m := &Message{
		LLMResponseID: r.str(f.llmResponseID, "llm_response_id"),
		Sender:        sanitize.Line(r.str(f.sender, "sender")),
	}
	var first string
	if obj := r.object(f.llmMessage, "llm_message"); obj != nil {
		jsonx.EachField(obj, func(key, val []byte) bool {
			switch string(key) {
			case "role":
				m.Role = sanitize.Line(r.str(val, "llm_message.role"))
			case "content":
				first = firstText(r, val, "llm_message.content")
			case "tool_calls":
				if arr := r.array(val, "llm_message.tool_calls"); arr != nil {
					jsonx.EachElement(arr, func([]byte) bool {
						m.HasToolCalls = true
						return false
					})
				}
			}
			return true
		})
	}
	label := m.Role
	if m.Sender != "" {
		label = m.Sender + " (" + m.Role + ")"
	}
	return m, joinSummary(label, first)
}

// decodeSystemPrompt reads a SystemPromptEvent: only the tool titles; the
// prompt itself (tens of KB) is left to Detail.
func decodeSystemPrompt(r *leanReader, f *topFields) (Body, string) {
	s := &SystemPrompt{}
	if arr := r.array(f.tools, "tools"); arr != nil {
		s.Tools = []string{}
		jsonx.EachElement(arr, func(tool []byte) bool {
			if tool[0] != '{' {
				r.mismatch("tools[]", "object", tool)
				return false
			}
			var title, name []byte
			jsonx.EachField(tool, func(key, val []byte) bool {
				switch string(key) {
				case "title":
					title = val
				case "name":
					name = val
				}
				return true
			})
			t := r.str(title, "tools[].title")
			if t == "" {
				t = r.str(name, "tools[].name")
			}
			s.Tools = append(s.Tools, sanitize.Line(t))
			return true
		})
	}
	return s, fmt.Sprintf("system prompt, %d tools", len(s.Tools))
}

// decodeUserReject reads a UserRejectObservation.
func decodeUserReject(r *leanReader, f *topFields) (Body, string) {
	u := &UserReject{
		ToolName:        sanitize.Line(r.str(f.toolName, "tool_name")),
		ToolCallID:      r.str(f.toolCallID, "tool_call_id"),
		ActionID:        r.str(f.actionID, "action_id"),
		Reason:          r.line(f.rejectionReason, "rejection_reason"),
		RejectionSource: sanitize.Line(r.str(f.rejectionSource, "rejection_source")),
	}
	if u.RejectionSource == "" {
		u.RejectionSource = "user"
	}
	label := "rejected"
	if u.RejectionSource == "hook" {
		label = "blocked by hook"
	}
	return u, joinSummary(label, u.Reason)
}

// decodeAgentError reads an AgentErrorEvent.
func decodeAgentError(r *leanReader, f *topFields) (Body, string) {
	e := &AgentError{
		ToolName:   sanitize.Line(r.str(f.toolName, "tool_name")),
		ToolCallID: r.str(f.toolCallID, "tool_call_id"),
		Error:      r.line(f.errorText, "error"),
	}
	if obj := r.object(f.classification, "classification"); obj != nil {
		jsonx.EachField(obj, func(key, val []byte) bool {
			if string(key) == "kind" {
				e.Classification = sanitize.Line(r.str(val, "classification.kind"))
			}
			return true
		})
	}
	return e, capLine(e.Error)
}

// decodeHook reads a HookExecutionEvent.
func decodeHook(r *leanReader, f *topFields) (Body, string) {
	h := &Hook{
		HookEventType: sanitize.Line(r.str(f.hookEventType, "hook_event_type")),
		ToolName:      sanitize.Line(r.str(f.toolName, "tool_name")),
		Success:       r.boolean(f.success, "success"),
		Blocked:       r.boolean(f.blocked, "blocked"),
	}
	code, _ := r.integer(f.exitCode, "exit_code")
	h.ExitCode = int(code)
	label := h.HookEventType + " hook"
	if h.ToolName != "" {
		label += " on " + h.ToolName
	}
	outcome := "ok"
	switch {
	case h.Blocked:
		outcome = "blocked"
	case !h.Success:
		outcome = "failed (exit " + strconv.Itoa(h.ExitCode) + ")"
	}
	if reason := r.line(f.reason, "reason"); reason != "" {
		outcome += ": " + reason
	}
	return h, capLine(label + ": " + outcome)
}

// decodeACPToolCall reads an ACPToolCallEvent.
func decodeACPToolCall(r *leanReader, f *topFields) (Body, string) {
	a := &ACPToolCall{
		ToolCallID: r.str(f.toolCallID, "tool_call_id"),
		Title:      r.line(f.title, "title"),
		Status:     sanitize.Line(r.str(f.status, "status")),
		IsError:    r.boolean(f.isError, "is_error"),
	}
	s := a.Title
	if a.Status != "" {
		s += " (" + a.Status + ")"
	}
	if a.IsError {
		s = "error: " + s
	}
	return a, capLine(s)
}

// condensationSummary describes a Condensation.
func condensationSummary(c *Condensation, summary string) string {
	s := fmt.Sprintf("condensation: %d events forgotten", len(c.ForgottenIDs))
	if summary != "" {
		s += ": " + summary
	}
	return capLine(s)
}

// completionLogSummary describes an LLMCompletionLogEvent.
func completionLogSummary(l *LLMCompletionLog) string {
	s := "LLM completion log"
	if l.ModelName != "" {
		s += " (" + l.ModelName + ")"
	}
	return s
}
