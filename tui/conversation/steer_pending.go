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

// messageEffectKnown keeps the server's answer on the open message prompt.
func (m *Conversation) messageEffectKnown(msg messageEffectMsg) tea.Cmd {
	switch m.input.Kind {
	case PromptMessage, promptPendingMessage:
		m.input.Ctl.effect, m.input.Ctl.version, m.input.Ctl.told = msg.effect, msg.version, true
	}
	return nil
}

// holdForPending stops a message about to be sent while actions wait: it
// asks what to do about them first (promptPendingMessage). It reports
// false when nothing waits and the message may go.
func (m *Conversation) holdForPending() (tea.Cmd, bool) {
	q := m.pendingQuestion()
	if len(q.ids) == 0 {
		return nil, false
	}
	m.input.Kind = promptPendingMessage
	m.input.Ctl.pending = q
	if !m.input.Ctl.told {
		return m.askMessageEffect(m.input.Ctl.To), true
	}
	return nil, true
}

// pendingMessageKey answers the question about the pending actions: x
// rejects them and then sends, y sends as it is (not offered while the
// effect is unknown), esc goes back to the message field, text kept.
func (m *Conversation) pendingMessageKey(msg tea.KeyPressMsg) tea.Cmd {
	a := m.input.Ctl
	switch {
	case key.Matches(msg, m.keys.Reject):
		a.rejectFirst = true
		return m.sendControl(a)
	case key.Matches(msg, m.keys.Confirm) && a.told && a.effect != MessageEffectUnknown:
		return m.sendControl(a)
	case key.Matches(msg, m.keys.Back, m.keys.Interrupt) || msg.String() == "n":
		m.input.Kind = PromptMessage
		return m.setFlash("message not sent: it is still in the field")
	}
	return nil
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
