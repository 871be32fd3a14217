package model

import (
	"encoding/json"
	"strings"
)

// The shared building blocks of the full payloads. Text in every Detail
// type is exactly as sent, NOT sanitised: it is for the inspector, export
// and search, and must go through Sanitize before it reaches a terminal.

// Content is one item of a content list: a TextContent (Type "text") or an
// ImageContent (Type "image", with ImageURLs that may be long data URLs).
type Content struct {
	Type        string   `json:"type"`
	Text        string   `json:"text,omitempty"`
	ImageURLs   []string `json:"image_urls,omitempty"`
	CachePrompt bool     `json:"cache_prompt,omitempty"`
}

// ContentText joins the text items of a content list with newlines and
// stands for each image with a short "[image]" placeholder.
func ContentText(items []Content) string {
	var b strings.Builder
	for i, c := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch c.Type {
		case "image":
			for j := range c.ImageURLs {
				if j > 0 {
					b.WriteByte('\n')
				}
				b.WriteString("[image]")
			}
		default:
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// ThinkingBlock is an Anthropic thinking block; a redacted one (Type
// "redacted_thinking") carries only opaque Data.
type ThinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// ReasoningItem is an OpenAI Responses reasoning item (upstream
// ReasoningItemModel). Its encrypted_content is deliberately not decoded:
// it is opaque and never for display.
type ReasoningItem struct {
	ID      string   `json:"id,omitempty"`
	Summary []string `json:"summary,omitempty"`
	Content []string `json:"content,omitempty"`
	Status  string   `json:"status,omitempty"`
}

// MessageToolCall is the raw tool call the LLM made; Arguments is a JSON
// string that still holds the LLM's security_risk and summary.
type MessageToolCall struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Arguments       string `json:"arguments"`
	Origin          string `json:"origin,omitempty"`
	ResponsesItemID string `json:"responses_item_id,omitempty"`
}

// CriticResult is a critic's verdict on a message or an action.
type CriticResult struct {
	Score    float64         `json:"score"`
	Message  string          `json:"message,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// LLMMessage is upstream's Message: what was sent to or received from the
// LLM.
type LLMMessage struct {
	Role                   string            `json:"role"`
	Content                []Content         `json:"content"`
	ToolCalls              []MessageToolCall `json:"tool_calls,omitempty"`
	ToolCallID             string            `json:"tool_call_id,omitempty"`
	Name                   string            `json:"name,omitempty"`
	ReasoningContent       string            `json:"reasoning_content,omitempty"`
	ThinkingBlocks         []ThinkingBlock   `json:"thinking_blocks,omitempty"`
	ResponsesReasoningItem *ReasoningItem    `json:"responses_reasoning_item,omitempty"`
}

// ErrorClassification says what kind of failure an error is and what the
// user can do about it.
type ErrorClassification struct {
	Kind       string `json:"kind"` // auth | quota | rate_limit | config | transient | agent_action | internal | unknown
	Retryable  bool   `json:"retryable,omitempty"`
	UserAction string `json:"user_action,omitempty"` // none | retry | settings
	ErrorID    string `json:"error_id,omitempty"`
}

// ToolDefinition is one tool offered to the LLM; its name is Title.
type ToolDefinition struct {
	Kind            string          `json:"kind"`
	Title           string          `json:"title"`
	Description     string          `json:"description,omitempty"`
	ActionType      string          `json:"action_type,omitempty"`
	ObservationType string          `json:"observation_type,omitempty"`
	Annotations     json.RawMessage `json:"annotations,omitempty"`
}
