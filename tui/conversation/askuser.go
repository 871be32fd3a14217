package conversation

import (
	"context"
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// Answerer answers the agent's ask_user question on a live conversation.
// Controls implement it where the source can answer (an agent-server);
// the answer names its request, and is sent only while that request is
// still open, so it can never answer a question the person did not see.
type Answerer interface {
	// Answer sends action (model.AskAccept with answers, AskDecline or
	// AskCancel) for request requestID. An error wrapping ErrNotSent says
	// why nothing was sent; one satisfying errors.Is(err, ErrUnsupported)
	// is a server without the answer route.
	Answer(ctx context.Context, requestID, action string, answers map[string][]model.AnswerChoice) error
}

// answerer is the view's Answerer; nil when it has none.
func (m *Conversation) answerer() Answerer {
	a, _ := m.Opts.Controls.(Answerer)
	return a
}

// answerDraft is the answer being put together in the answer prompt: the
// request it answers (copied when the prompt opened), the question shown,
// and what was chosen or typed for each.
type answerDraft struct {
	requestID string
	questions []model.Question
	k         int      // the question shown
	cursor    int      // the option under the cursor
	chosen    [][]bool // per question, per option
	texts     []string // per free-form question, its text
	in        textinput.Model
}

// openQuestion is the latest state's open question, nil when none is.
func (m *Conversation) openQuestion() *reducer.Question {
	st := m.Log.Latest()
	if st.Status != model.StatusWaitingForConfirmation {
		return nil
	}
	return st.Question
}

// askAnswer opens the answer prompt on the open question (a, or x, while a
// question is open: the ask_user action waits for an answer, never for an
// approval, so neither accepts or rejects it).
func (m *Conversation) askAnswer() tea.Cmd {
	q := m.openQuestion()
	if q == nil {
		return m.setFlash("no question is open")
	}
	if m.answerer() == nil || m.feedDone || !m.Opts.Live {
		return m.setFlash("the agent asks you a question; this source cannot take an answer")
	}
	d := &answerDraft{requestID: q.RequestID(), questions: append([]model.Question(nil), q.Request.Questions...)}
	d.chosen = make([][]bool, len(d.questions))
	d.texts = make([]string, len(d.questions))
	for i, qu := range d.questions {
		d.chosen[i] = make([]bool, len(qu.Options))
	}
	d.in = NewTextInput()
	m.openPrompt(Prompt{Kind: promptAnswer, ans: d})
	return nil
}

// answerKey answers a key in the answer prompt: ↑/↓ and space (or a
// digit) choose options, enter goes to the next question and sends after
// the last, ctrl+d declines, ctrl+x dismisses the question (cancel), esc
// closes the prompt sending nothing. A free-form question takes text.
func (p *promptDialog) answerKey(msg tea.KeyPressMsg) dialog.Action {
	d := p.ans
	qu := d.questions[d.k]
	switch s := msg.String(); {
	case key.Matches(msg, p.keys.Back):
		return p.cancelled()
	case s == "ctrl+d":
		return p.answered(model.AskDecline)
	case s == "ctrl+x":
		return p.answered(model.AskCancel)
	case key.Matches(msg, p.keys.Submit) || s == "tab":
		if len(qu.Options) == 0 {
			d.texts[d.k] = strings.TrimSpace(d.in.Value())
		}
		if d.k+1 < len(d.questions) {
			d.k++
			d.cursor = 0
			d.in = NewTextInput()
			d.in.SetValue(d.texts[d.k])
			return dialog.Run(nil)
		}
		return p.answered(model.AskAccept)
	case len(qu.Options) == 0:
		d.in, _ = editInput(d.in, msg)
	case s == "up":
		d.cursor = max(d.cursor-1, 0)
	case s == "down":
		d.cursor = min(d.cursor+1, len(qu.Options)-1)
	case s == "space":
		d.choose(d.cursor)
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9' && int(s[0]-'1') < len(qu.Options):
		d.cursor = int(s[0] - '1')
		d.choose(d.cursor)
	}
	return dialog.Run(nil)
}

// answered closes the answer prompt and says how it answers.
func (p *promptDialog) answered(action string) dialog.Action {
	return dialog.Close(say(promptSubmittedMsg{p: p.Prompt, action: action}))
}

// choose toggles option o of the question shown; a single-select question
// keeps only it.
func (d *answerDraft) choose(o int) {
	sel := d.chosen[d.k]
	if !d.questions[d.k].MultiSelect {
		was := sel[o]
		clear(sel)
		sel[o] = !was
		return
	}
	sel[o] = !sel[o]
}

// answers is the draft as upstream's answers map: the chosen options per
// question, a free-form question's text as the label of one selection;
// questions left blank are left out (upstream accepts partial answers).
func (d *answerDraft) answers() map[string][]model.AnswerChoice {
	out := map[string][]model.AnswerChoice{}
	for i, qu := range d.questions {
		if len(qu.Options) == 0 {
			if d.texts[i] != "" {
				out[qu.ID] = []model.AnswerChoice{{OptionID: "text", Label: d.texts[i]}}
			}
			continue
		}
		for o, on := range d.chosen[i] {
			if on {
				out[qu.ID] = append(out[qu.ID], model.AnswerChoice{OptionID: qu.Options[o].ID, Label: qu.Options[o].Label})
			}
		}
	}
	return out
}

// sendAnswer sends the draft with action, unless the question it answers
// is no longer the open one: then nothing is sent and the footer says why.
func (m *Conversation) sendAnswer(d *answerDraft, action string) tea.Cmd {
	if why := questionGone(m.Log.Latest(), d.requestID); why != "" {
		return m.setFlash("not sent: " + why)
	}
	a := m.answerer()
	if a == nil || m.feedDone {
		return m.setFlash("not sent: the connection has ended")
	}
	answers := d.answers()
	if action != model.AskAccept {
		answers = nil
	}
	words := map[string]string{model.AskAccept: "answering", model.AskDecline: "declining", model.AskCancel: "dismissing"}[action]
	flash, to, id := m.setFlash(words+" the question…"), m.Addr(), d.requestID
	return tea.Batch(flash, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), RespondTimeout)
		defer cancel()
		return answerDoneMsg{Addr: to, action: action, err: a.Answer(ctx, id, action, answers)}
	})
}

// questionGone says why the request is no longer the open question, as of
// the newest event; "" while it still is.
func questionGone(st reducer.State, requestID string) string {
	switch {
	case st.Question == nil:
		return "the question was answered or withdrawn"
	case st.Question.RequestID() != requestID:
		return "the agent now asks another question"
	case st.Status != model.StatusWaitingForConfirmation:
		return "the conversation is " + strings.ReplaceAll(st.Status, "_", " ") + ", no longer waiting for an answer"
	}
	return ""
}

// withdrawAnswer closes the answer prompt once its question is no longer
// open (after new events arrived).
func (m *Conversation) withdrawAnswer() tea.Cmd {
	p := m.prompt()
	if p == nil || p.Kind != promptAnswer {
		return nil
	}
	why := questionGone(m.Log.Latest(), p.ans.requestID)
	if why == "" {
		return nil
	}
	m.closePrompt()
	return m.setFlash("question withdrawn: " + why)
}

// answerDoneMsg is sent when an answer request finished.
type answerDoneMsg struct {
	tui.Addr
	action string
	err    error
}

// answerDone reports how an answer went.
func (m *Conversation) answerDone(msg answerDoneMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, ErrNotSent):
		return m.setFlash(sanitize.Line(msg.err.Error()))
	case errors.Is(msg.err, ErrUnsupported):
		return m.setFlash("not sent: this server has no answer route (respond_to_ask_user, newer than agent-server 1.43.1)")
	case msg.err != nil:
		return m.setFlash("could not answer: " + SanitizeErr(msg.err))
	}
	return m.setFlash(map[string]string{model.AskAccept: "answered", model.AskDecline: "declined to answer", model.AskCancel: "dismissed the question"}[msg.action])
}

// answerRows is how many lines the answer prompt takes: its head, the
// question and one line per option (or the text field).
func (p Prompt) answerRows() int {
	qu := p.ans.questions[p.ans.k]
	return 2 + max(len(qu.Options), 1)
}

// renderAnswer draws the answer prompt.
func (p Prompt) renderAnswer(s theme.Styles, cells text.Cells, width int) string {
	d := p.ans
	qu := d.questions[d.k]
	next := "enter send"
	if d.k+1 < len(d.questions) {
		next = "enter next question"
	}
	lines := []string{s.Warn.Render("the agent asks you ("+Itoa(d.k+1)+"/"+Itoa(len(d.questions))+")") + " " +
		s.Muted.Render(next+" · ctrl+d decline · ctrl+x dismiss · esc close")}
	how := ""
	switch {
	case len(qu.Options) == 0:
		how = " (type your answer)"
	case qu.MultiSelect:
		how = " (space or 1-9 toggle, several allowed)"
	default:
		how = " (space or 1-9 choose one)"
	}
	lines = append(lines, s.Prompt.Render(qu.Text)+s.Muted.Render(how))
	if len(qu.Options) == 0 {
		lines = append(lines, "› "+d.in.Value())
	}
	for o, opt := range qu.Options {
		cur := "  "
		if o == d.cursor {
			cur = "› "
		}
		box := "[ ] "
		if d.chosen[d.k][o] {
			box = "[x] "
		}
		line := cur + s.Key.Render(Itoa(o+1)) + " " + box + opt.Label
		if opt.Description != "" {
			line += s.Muted.Render(" — " + opt.Description)
		}
		lines = append(lines, cells.Truncate(line, width, "…"))
	}
	return strings.Join(lines, "\n")
}

// questionBanner is the banner of an open question: the keys first, so a
// narrow terminal cuts the question's text, not them, then the first
// question.
func questionBanner(q *reducer.Question, canAnswer bool, dismiss string) string {
	what := "the agent asks you"
	if canAnswer {
		what += " · a answer"
	}
	what += dismiss
	if qs := q.Request.Questions; len(qs) > 0 {
		what += " · " + qs[0].Text
		if len(qs) > 1 {
			what += " (+" + Itoa(len(qs)-1) + " more)"
		}
	}
	return what
}
