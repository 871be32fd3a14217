package conversation

import (
	"context"
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
)

// MessageEffect is what a user message does to the actions a conversation
// waits on, which depends on the server's version: up to SDK 1.43.1 it
// approves them, after upstream PR #5110 it rejects them as superseded.
type MessageEffect int

const (
	// MessageEffectUnknown: the server's version does not tell; M offers
	// only the safe path (reject first, then send).
	MessageEffectUnknown MessageEffect = iota
	// MessageEffectApproves: the message approves the pending actions.
	MessageEffectApproves
	// MessageEffectRejects: the message rejects them ("superseded").
	MessageEffectRejects
)

// MessageEffects is a Steering that can say what a message does to pending
// actions on its server, and the version it decided from ("" when the
// server did not say). It may do I/O: it runs in a command.
type MessageEffects interface {
	MessageEffect(ctx context.Context) (MessageEffect, string)
}

// messageEffectMsg brings the server's answer to the open message prompt.
type messageEffectMsg struct {
	tui.Addr
	effect  MessageEffect
	version string
}

// pendingQuestion is the actions the conversation waits on now (the latest
// state); no ids when it waits on none.
func (m *Conversation) pendingQuestion() question {
	var q question
	st := m.Log.Latest()
	if st.Status != model.StatusWaitingForConfirmation {
		return q
	}
	for _, p := range st.Pending {
		q.ids = append(q.ids, p.ID)
		q.indices = append(q.indices, p.Index)
	}
	return q
}

// askMessageEffect asks the server, in a command, what a message would do
// to the pending actions; nil when the Steering cannot say (the effect
// stays unknown, so only the safe path is offered).
func (m *Conversation) askMessageEffect(to Steering) tea.Cmd {
	e, ok := to.(MessageEffects)
	if !ok {
		return nil
	}
	addr := m.Addr()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), RespondTimeout)
		defer cancel()
		effect, version := e.MessageEffect(ctx)
		return messageEffectMsg{Addr: addr, effect: effect, version: sanitize.Line(version)}
	}
}

// effectKnown keeps the server's answer on the open message prompt; any
// other prompt leaves it.
func (p *promptDialog) effectKnown(msg messageEffectMsg) dialog.Action {
	switch p.Kind {
	case PromptMessage, promptPendingMessage:
		p.Ctl.effect, p.Ctl.version, p.Ctl.told = msg.effect, msg.version, true
		return dialog.Run(nil)
	}
	return dialog.Pass()
}

// holdForPending stops a message about to be sent while actions wait: it
// asks what to do about them first, turning the message prompt p into the
// question (promptPendingMessage). It reports false when nothing waits
// and the message may go.
func (m *Conversation) holdForPending(p *promptDialog) (tea.Cmd, bool) {
	q := m.pendingQuestion()
	if len(q.ids) == 0 {
		return nil, false
	}
	p.Kind = promptPendingMessage
	p.Ctl.pending = q
	if !p.Ctl.told {
		return m.askMessageEffect(p.Ctl.To), true
	}
	return nil, true
}

// pendingMessageKey answers the question about the pending actions: x
// rejects them and then sends, y sends as it is (not offered while the
// effect is unknown), esc goes back to the message field, text kept.
func (p *promptDialog) pendingMessageKey(msg tea.KeyPressMsg) dialog.Action {
	a := p.Ctl
	switch {
	case key.Matches(msg, p.keys.Reject):
		p.Ctl.rejectFirst = true
		return p.submitted()
	case key.Matches(msg, p.keys.Confirm) && a.told && a.effect != MessageEffectUnknown:
		return p.submitted()
	case key.Matches(msg, p.keys.Back, p.keys.Interrupt) || msg.String() == "n":
		cancelled := promptCancelledMsg{p: p.Prompt}
		p.Kind = PromptMessage
		return dialog.Run(say(cancelled))
	}
	return dialog.Run(nil)
}

// sendAfterReject rejects exactly the actions asked about and then sends
// the message; when the rejection is not sent (the conversation no longer
// waits on exactly them) the message is not sent either.
func (a ControlAsk) sendAfterReject(ctx context.Context, c Controls) (string, error) {
	if c == nil {
		return "", errors.New("this source cannot answer the pending actions")
	}
	if err := c.Respond(ctx, false, a.pending.ids); err != nil {
		if errors.Is(err, ErrNotSent) {
			return "", err
		}
		return "", errors.New("could not reject " + ordinals(a.pending.indices) + ": " + err.Error())
	}
	err := a.To.Message(ctx, a.Text, a.Run)
	if err != nil {
		return "", errors.New("rejected " + ordinals(a.pending.indices) + " but the message was not sent: " + err.Error())
	}
	if a.Run {
		return "rejected " + ordinals(a.pending.indices) + ", then sent the message: the agent runs with it", nil
	}
	return "rejected " + ordinals(a.pending.indices) + ", then appended the message: the agent does not run on it until resumed", nil
}

// sentWords is what the footer says once a message went out, by what it
// did to the actions that waited when it was sent.
func (a ControlAsk) sentWords() string {
	at := ordinals(a.pending.indices)
	switch {
	case len(a.pending.ids) == 0 && a.Run:
		return "message sent: the agent runs with it"
	case len(a.pending.ids) == 0:
		return "message appended: the agent does not run on it until resumed"
	case a.effect == MessageEffectRejects:
		return "message sent: it rejected " + at + " as superseded" + map[bool]string{true: "; the agent runs with it", false: ""}[a.Run]
	case a.Run:
		return "message sent: it approved " + at + " and the agent runs with it"
	}
	return "message appended: " + at + " still wait; the next run approves them"
}

// effectWords says what the message would do to the pending actions, for
// the prompt, with the server's version.
func (a ControlAsk) effectWords() string {
	at := ordinals(a.pending.indices)
	server := "this server"
	if a.version != "" {
		server = "this server (SDK " + a.version + ")"
	}
	switch {
	case !a.told:
		return "asking the server what a message does to " + at + "…"
	case a.effect == MessageEffectApproves:
		return "on " + server + " a message approves " + at
	case a.effect == MessageEffectRejects:
		return "on " + server + " a message rejects " + at + " (superseded)"
	}
	return "on " + server + " a message may approve " + at + " or reject it: the version does not tell"
}

// renderPendingMessage draws the question asked before a message is sent
// while actions wait.
func (p Prompt) renderPendingMessage(s theme.Styles) string {
	a := p.Ctl
	opts := s.Key.Render("x") + " reject first, then send"
	if a.told && a.effect != MessageEffectUnknown {
		what := "approves"
		if a.effect == MessageEffectRejects {
			what = "rejects"
		}
		opts += " · " + s.Key.Render("y") + " send (" + what + ")"
	}
	return s.Warn.Render(a.effectWords()+".") + " " + opts + " · " + s.Muted.Render("esc back to the message")
}
