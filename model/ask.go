package model

// The lean bodies of the kinds newer than SDK 1.43.1 that a monitor shows:
// the ask_user pair (upstream openhands-sdk/openhands/sdk/event/ask_user.py
// and ask_user_schema.py), the security analyzer's verdict (event/security.py,
// PR #5182), warnings (event/warning.py) and the iteration limit
// (event/conversation_iteration_limit.py). Their strings are copies, never
// aliases of Raw, so detaching leaves them alone.

// AskUserRequest is the lean body of an AskUserRequestEvent: the agent paused
// the run to ask the user structured questions. It is open until an
// AskUserResponse with the same RequestID arrives.
type AskUserRequest struct {
	RequestID  string
	ActionID   string // the ask_user ActionEvent it resolves
	ToolCallID string
	ToolName   string
	Questions  []Question
	// TimeoutSeconds is the request's own timeout; 0 defers to the
	// server's default.
	TimeoutSeconds float64
}

// Question is one structured question; no options means free text.
type Question struct {
	ID          string
	Text        string // sanitised, one line, capped
	Options     []QuestionOption
	MultiSelect bool
}

// QuestionOption is one selectable answer.
type QuestionOption struct {
	ID          string
	Label       string
	Description string
}

// AskUserResponse is the lean body of an AskUserResponseEvent: the answer to
// one request, Action accept, decline or cancel.
type AskUserResponse struct {
	RequestID string
	Action    string
	// Answers are the selections per question, for accept only.
	Answers []QuestionAnswer
}

// QuestionAnswer is the selections for one question.
type QuestionAnswer struct {
	QuestionID string
	Selected   []AnswerChoice
}

// AnswerChoice is one selection: an option's id and label, or for a
// free-form question the text in Label.
type AnswerChoice struct {
	OptionID string `json:"option_id"`
	Label    string `json:"label"`
}

// The actions of an AskUserResponse (MCP elicitation's).
const (
	AskAccept  = "accept"
	AskDecline = "decline"
	AskCancel  = "cancel"
)

// SecurityAnalysis is the lean body of a SecurityAnalysisEvent: the risk the
// configured security analyzer gave each action of a batch, which is what the
// confirmation policy reads and may differ from the LLM's own security_risk.
type SecurityAnalysis struct {
	Analyzer string
	Policy   string
	Risks    []ActionRisk // in action id order
}

// ActionRisk is the analyzer's risk for one action.
type ActionRisk struct {
	ActionID string
	Risk     string // LOW | MEDIUM | HIGH | UNKNOWN
}

// RiskOf returns the analyzer's risk for an action id, "" when it did not
// analyse it.
func (s *SecurityAnalysis) RiskOf(actionID string) string {
	for _, r := range s.Risks {
		if r.ActionID == actionID {
			return r.Risk
		}
	}
	return ""
}

// Warning is the lean body of a WarningEvent: a non-fatal issue shown to the
// user, never to the LLM.
type Warning struct {
	Message string
}

// IterationLimit is the lean body of a ConversationIterationLimitEvent: the
// run stopped because its iteration budget was spent.
type IterationLimit struct {
	Iteration     int
	MaxIterations int
	Detail        string
}

// SecurityAnalyzerConfig is the lean body of a
// SecurityAnalyzerConfigurationEvent: which analyzer is configured ("" for
// none). Known but quiet.
type SecurityAnalyzerConfig struct {
	AnalyzerType string
}

func (*AskUserRequest) isBody()         {}
func (*AskUserResponse) isBody()        {}
func (*SecurityAnalysis) isBody()       {}
func (*Warning) isBody()                {}
func (*IterationLimit) isBody()         {}
func (*SecurityAnalyzerConfig) isBody() {}
