package cloud

// The JSON shapes of the Cloud app server, from its OpenAPI schema
// (components SandboxInfo, ExposedUrl, AppConversationStartTask,
// AppConversationStartRequest, SendMessageRequest, AppConversation). Only
// the fields this package reads are declared; the server sends more.
// SendMessageRequest is model.UserMessage, shared with the agent-server
// client.

import "ohwatch/model"

// Sandbox statuses (SandboxStatus).
const (
	sandboxStarting = "STARTING"
	sandboxRunning  = "RUNNING"
	sandboxPaused   = "PAUSED"
	sandboxError    = "ERROR"
	sandboxMissing  = "MISSING"
)

// Start task statuses (AppConversationStartTaskStatus) that end the wait;
// the others (WORKING, WAITING_FOR_SANDBOX, …) mean "keep polling".
const (
	taskReady = "READY"
	taskError = "ERROR"
)

// agentServerURLName is the ExposedUrl name of a sandbox's agent-server.
const agentServerURLName = "AGENT_SERVER"

// sandboxInfo is SandboxInfo.
type sandboxInfo struct {
	ID            string       `json:"id"`
	Status        string       `json:"status"`
	SessionAPIKey *string      `json:"session_api_key"`
	ExposedURLs   []exposedURL `json:"exposed_urls"`
	StatusDetail  *string      `json:"status_detail"`
}

// exposedURL is ExposedUrl.
type exposedURL struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	Port int    `json:"port"`
}

// agentServerURL returns the sandbox's AGENT_SERVER URL, or "".
func (s *sandboxInfo) agentServerURL() string {
	for _, u := range s.ExposedURLs {
		if u.Name == agentServerURLName {
			return u.URL
		}
	}
	return ""
}

// startTask is AppConversationStartTask.
type startTask struct {
	ID                string  `json:"id"`
	Status            string  `json:"status"`
	Detail            *string `json:"detail"`
	AppConversationID *string `json:"app_conversation_id"`
	SandboxID         *string `json:"sandbox_id"`
	AgentServerURL    *string `json:"agent_server_url"`
}

// startRequest is the part of AppConversationStartRequest this package sets.
type startRequest struct {
	SandboxID      string             `json:"sandbox_id"`
	InitialMessage *model.UserMessage `json:"initial_message,omitempty"`
	Title          string             `json:"title,omitempty"`
}

// appConversation is AppConversation.
type appConversation struct {
	ID              string  `json:"id"`
	SandboxID       string  `json:"sandbox_id"`
	SandboxStatus   string  `json:"sandbox_status"`
	ExecutionStatus *string `json:"execution_status"`
	ConversationURL *string `json:"conversation_url"`
	SessionAPIKey   *string `json:"session_api_key"`
	Title           *string `json:"title"`
}

// str dereferences an optional string.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
