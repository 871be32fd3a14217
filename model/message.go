package model

// UserMessage is the agent-server's SendMessageRequest, the body of
// POST /api/conversations/{id}/events and the Cloud's initial_message: one
// definition for every client that sends what a person typed, so the two
// cannot drift apart.
type UserMessage struct {
	Role    string        `json:"role"`
	Content []TextContent `json:"content"`
	// Run lets the agent start on the message at once; the schema's
	// default is false.
	Run bool `json:"run"`
}

// TextContent is the SDK's TextContent, which forbids extra properties.
type TextContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// NewUserMessage is a user message of one text part that lets the agent run.
func NewUserMessage(text string) UserMessage {
	return UserMessage{Role: "user", Content: []TextContent{{Type: "text", Text: text}}, Run: true}
}
