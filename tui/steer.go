package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/theme"
)

// Steering acts on a live conversation: pause, resume, interrupt, a user
// message, the confirmation policy. The wiring supplies it as Options.
// Controls (a Controls that also steers), bound to one conversation; a
// source that cannot be acted on (a recording) has none.
type Steering interface {
	Pause(ctx context.Context) error
	Run(ctx context.Context) error
	// Interrupt returns an error satisfying errors.Is(err,
	// ErrUnsupported) when the server has no such control.
	Interrupt(ctx context.Context) error
	// Message appends text as a user message; with run the agent goes on
	// with it.
	Message(ctx context.Context, text string, run bool) error
	// Policy sets the confirmation policy (never, always, risky,
	// risky:LOW|MEDIUM|HIGH) and returns it as set.
	Policy(ctx context.Context, policy string) (string, error)
}

// ErrUnsupported marks a control the server does not have (an interrupt on
// a server from before that route): a guard falls back to a pause.
var ErrUnsupported = errors.New("control not supported by the server")

// steering is the view's Steering; nil when it has none.
func (m *Conversation) steering() Steering {
	s, _ := m.opts.Controls.(Steering)
	return s
}

// control is one of the things a person can do to a conversation.
type control int

const (
	ctlPause control = iota
	ctlRun
	ctlInterrupt
	ctlMessage
	ctlPolicy
)

// name is the control as the footer names it.
func (c control) name() string {
	return [...]string{"pause", "resume", "interrupt", "message", "policy"}[c]
}

// policies are the confirmation policies C offers, by number.
var policies = []string{"never", "risky", "risky:MEDIUM", "risky:LOW", "always"}

// controlAsk is a control as asked: what, and the Steering of the
// conversation it was asked on, which it stays bound to whatever the
// screen shows by the time it is sent.
type controlAsk struct {
	what   control
	to     Steering
	policy string // ctlPolicy: the policy picked
	text   string // ctlMessage: the message
	run    bool   // ctlMessage: the agent runs with it
	// pending is, for a message, the actions the conversation waited on
	// when it was asked; effect and version what the server said a message
	// does to them (told: it answered); rejectFirst sends the rejection of
	// exactly those first (steer_pending.go); answer is the view's Controls.
	pending     question
	effect      MessageEffect
	version     string
	told        bool
	rejectFirst bool
	answer      Controls
	// despite is the status a pause or interrupt is sent despite, since
	// the events disagree with it (steer_disagree.go); "" when none.
	despite string
}

// controlDoneMsg is sent when a control's request finished.
type controlDoneMsg struct {
	Addr
	what   control
	result string
	err    error
}

// controlOf is the control a key asks for; ok is false for other keys.
func controlOf(k KeyMap, msg tea.KeyPressMsg) (control, bool) {
	switch {
	case key.Matches(msg, k.PauseRun):
		return ctlPause, true
	case key.Matches(msg, k.ResumeRun):
		return ctlRun, true
	case key.Matches(msg, k.InterruptRun):
		return ctlInterrupt, true
	case key.Matches(msg, k.Message):
		return ctlMessage, true
	case key.Matches(msg, k.Policy):
		return ctlPolicy, true
	}
	return 0, false
}

// controlKey answers a control's key: it says why when the control does
// not apply, asks y first for interrupt and policy, opens the message
// field, and otherwise sends.
func (m *Conversation) controlKey(what control) tea.Cmd {
	if why := m.controlRefusal(what); why != "" {
		return m.setFlash(what.name() + ": " + why + "; nothing sent")
	}
	ask := controlAsk{what: what, to: m.steering(), run: true, despite: m.despiteStatus(what)}
	switch what {
	case ctlInterrupt:
		m.input = prompt{kind: promptControl, ctl: ask}
		return nil
	case ctlPolicy:
		m.input = prompt{kind: promptPolicy, ctl: ask}
		return nil
	case ctlMessage:
		ask.answer, ask.pending = m.opts.Controls, m.pendingQuestion()
		m.input = prompt{kind: promptMessage, ctl: ask, area: newMessageArea(m.width)}
		if len(ask.pending.ids) > 0 {
			// Say what a message does to them before anything is typed.
			return m.askMessageEffect(ask.to)
		}
		return nil
	}
	return m.sendControl(ask)
}

// controlRefusal says why a control does not apply now; "" when it does.
// The latest state decides, wherever the cursor is.
func (m *Conversation) controlRefusal(what control) string {
	switch {
	case m.steering() == nil && !m.opts.Live:
		return "a recording cannot be acted on"
	case m.steering() == nil:
		return "this source offers no controls"
	case m.feedDone:
		return "the connection has ended"
	}
	status := m.log.Latest().Status
	switch what {
	case ctlPause, ctlInterrupt:
		if status != model.StatusRunning && status != model.StatusWaitingForConfirmation && m.despiteStatus(what) == "" {
			return "the conversation is " + model.StatusWords(status) + ", not running"
		}
	case ctlRun:
		switch status {
		case model.StatusRunning:
			return "the conversation is already running"
		case model.StatusWaitingForConfirmation:
			return "the conversation waits for confirmation: a accepts, x rejects"
		}
	}
	return ""
}

// sendControl sends a control in a command; the answer comes back as a
// controlDoneMsg addressed to this view.
func (m *Conversation) sendControl(a controlAsk) tea.Cmd {
	m.input = prompt{}
	flash, to := m.setFlash(a.what.name()+": sending…"), m.addr()
	return tea.Batch(flash, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), respondTimeout)
		defer cancel()
		result, err := a.send(ctx)
		return controlDoneMsg{Addr: to, what: a.what, result: result, err: err}
	})
}

// send makes the request and words what the server accepted, saying so
// when it was sent despite the status.
func (a controlAsk) send(ctx context.Context) (string, error) {
	result, err := a.request(ctx)
	if a.despite == "" {
		return result, err
	}
	why := "sent although the header said " + a.despite + " (the agent's events kept arriving)"
	if err != nil {
		return "", fmt.Errorf("%s; the server answered: %w", why, err)
	}
	return why + "; the server answered: " + result, nil
}

// request makes the request and words what the server accepted.
func (a controlAsk) request(ctx context.Context) (string, error) {
	switch a.what {
	case ctlPause:
		return "pause accepted: the agent stops after its current LLM call", a.to.Pause(ctx)
	case ctlRun:
		return "resume accepted: the agent runs again", a.to.Run(ctx)
	case ctlInterrupt:
		return "interrupt accepted: the LLM call in flight is cancelled", a.to.Interrupt(ctx)
	case ctlMessage:
		if a.rejectFirst {
			return a.sendAfterReject(ctx, a.answer)
		}
		return a.sentWords(), a.to.Message(ctx, a.text, a.run)
	}
	p, err := a.to.Policy(ctx, a.policy)
	return "confirmation policy set to " + model.SanitizeLine(p), err
}

// controlDone shows the server's answer.
func (m *Conversation) controlDone(msg controlDoneMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash(msg.what.name() + " not done: " + sanitizeErr(msg.err))
	}
	return m.setFlash(msg.result)
}

// controlPromptKey answers a key while a control's prompt is open: y to
// an interrupt or a policy, a policy's number, the message field's keys.
func (m *Conversation) controlPromptKey(msg tea.KeyPressMsg) tea.Cmd {
	p := m.input
	switch p.kind {
	case promptControl:
		if key.Matches(msg, m.keys.Confirm) {
			return m.sendControl(p.ctl)
		}
	case promptPolicy:
		if key.Matches(msg, m.keys.PolicyPick) {
			if d := msg.String(); len(d) == 1 && int(d[0]-'1') < len(policies) {
				p.ctl.policy = policies[d[0]-'1']
				m.input = prompt{kind: promptControl, ctl: p.ctl}
				return nil
			}
		}
	case promptMessage:
		return m.messageKey(msg)
	case promptPendingMessage:
		return m.pendingMessageKey(msg)
	}
	m.input = prompt{}
	return m.setFlash("cancelled")
}

// messageRows is how many lines the message field shows.
const messageRows = 4

// maxMessageRunes bounds a message typed or pasted in the field.
const maxMessageRunes = 20000

// newMessageArea is the message field: a bubbles textarea, so multi-line
// editing and pasting work; enter sends, alt+enter (or ctrl+j) starts a
// new line.
func newMessageArea(width int) *textarea.Model {
	a := textarea.New()
	a.ShowLineNumbers = false
	a.Prompt = "│ "
	a.CharLimit = maxMessageRunes
	a.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"))
	a.KeyMap.Paste.SetEnabled(false) // the terminal pastes (tea.PasteMsg)
	a.SetWidth(max(width, 10))
	a.SetHeight(messageRows)
	a.Focus()
	return &a
}

// messageKey edits the message, toggles run, sends or cancels.
func (m *Conversation) messageKey(msg tea.KeyPressMsg) tea.Cmd {
	p := &m.input
	switch {
	case key.Matches(msg, m.keys.Back, m.keys.Interrupt):
		m.input = prompt{}
		return m.setFlash("message not sent")
	case key.Matches(msg, m.keys.RunToggle):
		p.ctl.run = !p.ctl.run
		return nil
	case key.Matches(msg, m.keys.SendMessage):
		text := strings.TrimSpace(p.area.Value())
		if text == "" {
			return m.setFlash("message: nothing to send")
		}
		if why := m.controlRefusal(ctlMessage); why != "" {
			m.input = prompt{}
			return m.setFlash("message: " + why + "; nothing sent")
		}
		p.ctl.text = text
		if cmd, held := m.holdForPending(); held {
			return cmd
		}
		p.ctl.pending = question{}
		return m.sendControl(p.ctl)
	}
	if msg.Text != "" {
		msg.Text = model.Sanitize(msg.Text)
	}
	a, _ := p.area.Update(msg)
	p.area = &a
	return nil
}

// messagePaste puts pasted text, lines and all, into the message field.
func (m *Conversation) messagePaste(msg tea.PasteMsg) tea.Cmd {
	a, _ := m.input.area.Update(tea.PasteMsg{Content: model.Sanitize(msg.Content)})
	m.input.area = &a
	return nil
}

// footerRows is how many lines the footer takes: the message field's
// while it is open, else one.
func (m *Conversation) footerRows() int {
	if m.input.kind == promptMessage {
		return messageRows + 1
	}
	if m.input.kind == promptAnswer {
		return m.input.answerRows()
	}
	return 1
}

// renderControl draws a control's prompt.
func (p prompt) renderControl(s theme.Styles, width int) string {
	switch p.kind {
	case promptPolicy:
		var b strings.Builder
		b.WriteString(s.Prompt.Render("confirmation policy: "))
		for i, name := range policies {
			b.WriteString(s.Key.Render(string(rune('1'+i))) + " " + name + "  ")
		}
		return b.String() + s.Muted.Render("esc cancel")
	case promptPendingMessage:
		return p.renderPendingMessage(s)
	case promptMessage:
		run := "enter sends and runs the agent"
		if !p.ctl.run {
			run = "enter appends it without running"
		}
		head := s.Prompt.Render("message: ")
		if len(p.ctl.pending.ids) > 0 {
			head += s.Warn.Render(p.ctl.effectWords()+"; enter asks first") + " · "
		}
		head += s.Muted.Render(run + " · tab " + map[bool]string{true: "append only", false: "run too"}[p.ctl.run] +
			" · alt+enter new line · esc cancel")
		p.area.SetWidth(max(width, 10))
		return head + "\n" + p.area.View()
	}
	if p.ctl.what == ctlPolicy {
		return s.Warn.Render("Set the confirmation policy to "+p.ctl.policy+"? [y/n]") + " " +
			s.Muted.Render("(it decides which actions wait for a/x)")
	}
	return s.Warn.Render("Interrupt the run? [y/n]") + " " + s.Muted.Render("(cancels the LLM call in flight; the conversation pauses)")
}

// controlKeys enables the control keys in the active map where they
// apply, for the help bar; pressed while disabled they still say why.
func (m *Conversation) controlKeys(k *KeyMap) {
	steer := m.steering() != nil && !m.feedDone
	k.PauseRun.SetEnabled(steer && m.controlRefusal(ctlPause) == "")
	k.ResumeRun.SetEnabled(steer && m.controlRefusal(ctlRun) == "")
	k.InterruptRun.SetEnabled(steer && m.controlRefusal(ctlInterrupt) == "")
	k.Message.SetEnabled(steer)
	k.Policy.SetEnabled(steer)
	k.PolicyPick.SetEnabled(m.input.kind == promptPolicy)
	k.SendMessage.SetEnabled(m.input.kind == promptMessage)
	k.RunToggle.SetEnabled(m.input.kind == promptMessage)
}
