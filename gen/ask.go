package gen

import (
	"time"

	"ohwatch/model"
)

// The ask_user pair, written from upstream's field names (openhands-sdk
// event/ask_user.py, ask_user_schema.py and tool/builtins/ask_user.py, on
// upstream's main branch after v1.43.1): the agent's ask_user call, the
// AskUserRequestEvent that pauses the run, the AskUserResponseEvent that
// answers it and the observation built from the answer.

// AskQuestion is one question of an ask_user call.
type AskQuestion struct {
	ID          string
	Text        string
	Options     [][2]string // id, label
	MultiSelect bool
}

// AskUser is an ask_user tool call asking qs.
func (b *Builder) AskUser(r *Response, qs []AskQuestion, summary string) Action {
	o := b.obj()
	o = appendKey(o, "questions")
	o = appendQuestions(o, qs)
	o = closeObj(o, "AskUserAction")
	args := newArgs().str("summary", summary)
	return b.actionEvent(r, "ask_user", o, args.String(), RiskLow, summary)
}

// appendQuestions writes qs as upstream's QuestionInfo list.
func appendQuestions(dst []byte, qs []AskQuestion) []byte {
	dst = append(dst, '[')
	for i, q := range qs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		dst = appendStringField(dst, "id", q.ID)
		dst = appendStringField(dst, "question", q.Text)
		dst = appendKey(dst, "options")
		dst = append(dst, '[')
		for k, opt := range q.Options {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '{')
			dst = appendStringField(dst, "id", opt[0])
			dst = appendStringField(dst, "label", opt[1])
			dst = append(dst, `,"description":null}`...)
		}
		dst = append(dst, ']')
		dst = appendBoolField(dst, "multi_select", q.MultiSelect)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// AskRequest is the AskUserRequestEvent for an ask_user call a, with the
// request id requestID.
func (b *Builder) AskRequest(a Action, requestID string, qs []AskQuestion) []byte {
	id := b.begin("agent")
	b.buf = appendStringField(b.buf, "request_id", requestID)
	b.buf = appendKey(b.buf, "questions")
	b.buf = appendQuestions(b.buf, qs)
	b.buf = appendStringField(b.buf, "action_id", a.ID)
	b.buf = appendStringField(b.buf, "tool_call_id", a.ToolCallID)
	b.buf = appendStringField(b.buf, "tool_name", a.ToolName)
	b.buf = append(b.buf, `,"timeout_seconds":null`...)
	return b.end(id, model.KindAskUserRequest, treeEvent)
}

// AskResponse is the user's AskUserResponseEvent accepting one option per
// question (answers maps a question id to an option id and label).
func (b *Builder) AskResponse(requestID, action string, answers [][3]string) []byte {
	id := b.begin("user")
	b.buf = appendStringField(b.buf, "request_id", requestID)
	b.buf = appendStringField(b.buf, "action", action)
	b.buf = appendKey(b.buf, "answers")
	b.buf = appendAnswers(b.buf, answers)
	return b.end(id, model.KindAskUserResponse, treeEvent)
}

// appendAnswers writes {question id: [{option_id, label}]}.
func appendAnswers(dst []byte, answers [][3]string) []byte {
	dst = append(dst, '{')
	for i, a := range answers {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, a[0])
		dst = append(dst, '[', '{')
		dst = appendStringField(dst, "option_id", a[1])
		dst = appendStringField(dst, "label", a[2])
		dst = append(dst, '}', ']')
	}
	return append(dst, '}')
}

// AskResult is the observation resolving a from the answer, with the text
// upstream's build_ask_user_observation writes.
func (b *Builder) AskResult(a Action, action string, answers [][3]string, message string) []byte {
	o := b.obj()
	o = appendKey(o, "content")
	o = appendTextList(o, message)
	o = appendBoolField(o, "is_error", false)
	o = appendStringField(o, "resolution", action)
	o = appendKey(o, "answers")
	o = appendAnswers(o, answers)
	o = appendStringField(o, "message", message)
	o = closeObj(o, "AskUserObservation")
	return b.observationEvent(a, o)
}

// askQuestions is what the generated agent asks.
var askQuestions = []AskQuestion{{
	ID:   "cutoff",
	Text: "Should a posting stamped exactly at the cutoff count in the balance?",
	Options: [][2]string{
		{"include", "Include it (cutoff is inclusive)"},
		{"exclude", "Exclude it (cutoff is exclusive)"},
	},
}}

// askStep is the agent asking the user how to treat the cutoff, the run
// waiting for the answer and going on with it.
func (c *convo) askStep() {
	c.asked = true
	r := c.llm(120+c.rng.IntN(200), "The spec is ambiguous about the cutoff instant; I'll ask the user.")
	a := c.b.AskUser(r, askQuestions, "Ask how to treat the cutoff instant")
	reqID := randUUID(c.rng)
	c.push(a.Raw, c.b.AskRequest(a, reqID, askQuestions), c.b.Status(model.StatusWaitingForConfirmation))
	c.b.Advance(time.Duration(8+c.rng.IntN(40)) * time.Second)
	answers := [][3]string{{"cutoff", "include", "Include it (cutoff is inclusive)"}}
	c.push(c.b.AskResponse(reqID, model.AskAccept, answers), c.b.Status(model.StatusRunning))
	c.push(c.b.AskResult(a, model.AskAccept, answers,
		"User answered:\n- "+askQuestions[0].Text+" -> Include it (cutoff is inclusive)"))
}
