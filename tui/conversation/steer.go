package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
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
	s, _ := m.Opts.Controls.(Steering)
	return s
}

// Control is one of the things a person can do to a conversation.
type Control int

const (
	CtlPause Control = iota
	CtlRun
	CtlInterrupt
	CtlMessage
	CtlPolicy
)

// Name is the control as the footer names it.
func (c Control) Name() string {
	return [...]string{"pause", "resume", "interrupt", "message", "policy"}[c]
}

// Policies are the confirmation policies C offers, by number.
var Policies = []string{"never", "risky", "risky:MEDIUM", "risky:LOW", "always"}

// ControlAsk is a control as asked: what, and the Steering of the
// conversation it was asked on, which it stays bound to whatever the
// screen shows by the time it is sent.
type ControlAsk struct {
	What   Control
	To     Steering
	Policy string // ctlPolicy: the policy picked
	Text   string // ctlMessage: the message
	Run    bool   // ctlMessage: the agent runs with it
	// Say is what a control that waits (RunWaiter) says while it does;
	// nil: it does not wait.
	Say func(string)
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
	tui.Addr
	what   Control
	result string
	err    error
}

// controlOf is the control a key asks for; ok is false for other keys.
func controlOf(k tui.KeyMap, msg tea.KeyPressMsg) (Control, bool) {
	switch {
	case key.Matches(msg, k.PauseRun):
		return CtlPause, true
	case key.Matches(msg, k.ResumeRun):
		return CtlRun, true
	case key.Matches(msg, k.InterruptRun):
		return CtlInterrupt, true
	case key.Matches(msg, k.Message):
		return CtlMessage, true
	case key.Matches(msg, k.Policy):
		return CtlPolicy, true
	}
	return 0, false
}

// controlKey answers a control's key: it says why when the control does
// not apply, asks y first for interrupt and policy, opens the message
// field, and otherwise sends.
func (m *Conversation) controlKey(what Control) tea.Cmd {
	if why := m.controlRefusal(what); why != "" {
		return m.setFlash(what.Name() + ": " + why + "; nothing sent")
	}
	ask := ControlAsk{What: what, To: m.steering(), Run: true, despite: m.despiteStatus(what)}
	switch what {
	case CtlInterrupt:
		m.openPrompt(Prompt{Kind: promptControl, Ctl: ask})
		return nil
	case CtlPolicy:
		m.openPrompt(Prompt{Kind: PromptPolicy, Ctl: ask})
		return nil
	case CtlMessage:
		ask.answer, ask.pending = m.Opts.Controls, m.pendingQuestion()
		m.openPrompt(Prompt{Kind: PromptMessage, Ctl: ask, Area: NewMessageArea(m.width)})
		if len(ask.pending.ids) > 0 {
			// Say what a message does to them before anything is typed.
			return m.askMessageEffect(ask.To)
		}
		return nil
	}
	return m.sendControl(ask)
}

// controlRefusal says why a control does not apply now; "" when it does.
// The latest state decides, wherever the cursor is.
func (m *Conversation) controlRefusal(what Control) string {
	switch {
	case m.steering() == nil && !m.Opts.Live:
		return "a recording cannot be acted on"
	case m.steering() == nil:
		return "this source offers no controls"
	case m.feedDone:
		return "the connection has ended"
	}
	status := m.Log.Latest().Status
	switch what {
	case CtlPause, CtlInterrupt:
		if status != model.StatusRunning && status != model.StatusWaitingForConfirmation && m.despiteStatus(what) == "" {
			return "the conversation is " + model.StatusWords(status) + ", not running"
		}
	case CtlRun:
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
func (m *Conversation) sendControl(a ControlAsk) tea.Cmd {
	m.closePrompt()
	flash, to := m.setFlash(a.What.Name()+": sending…"), m.Addr()
	return tea.Batch(flash, WithProgress(to, func(say func(string)) tea.Msg {
		ctx, cancel := a.ControlContext()
		defer cancel()
		a.Say = func(s string) { say(a.What.Name() + ": " + s) }
		result, err := a.Send(ctx)
		return controlDoneMsg{Addr: to, what: a.What, result: result, err: err}
	}))
}

// Send makes the request and words what the server accepted, saying so
// when it was sent despite the status.
func (a ControlAsk) Send(ctx context.Context) (string, error) {
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
func (a ControlAsk) request(ctx context.Context) (string, error) {
	switch a.What {
	case CtlPause:
		return "pause accepted: the agent stops after its current LLM call", a.To.Pause(ctx)
	case CtlRun:
		if w, ok := a.To.(RunWaiter); ok && a.Say != nil {
			return "resume accepted: the agent runs again", w.RunWaiting(ctx, a.Say)
		}
		return "resume accepted: the agent runs again", a.To.Run(ctx)
	case CtlInterrupt:
		return "interrupt accepted: the LLM call in flight is cancelled", a.To.Interrupt(ctx)
	case CtlMessage:
		if a.rejectFirst {
			return a.sendAfterReject(ctx, a.answer)
		}
		return a.sentWords(), a.To.Message(ctx, a.Text, a.Run)
	}
	p, err := a.To.Policy(ctx, a.Policy)
	return "confirmation policy set to " + sanitize.Line(p), err
}

// controlDone shows the server's answer.
func (m *Conversation) controlDone(msg controlDoneMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash(msg.what.Name() + " not done: " + SanitizeErr(msg.err))
	}
	return m.setFlash(msg.result)
}

// policyKey answers a key while the policies are offered: a policy's
// number asks y before setting it; any other key cancels.
func (p *promptDialog) policyKey(msg tea.KeyPressMsg) dialog.Action {
	if key.Matches(msg, p.keys.PolicyPick) {
		if d := msg.String(); len(d) == 1 && int(d[0]-'1') < len(Policies) {
			p.Ctl.Policy = Policies[d[0]-'1']
			p.Prompt = Prompt{Kind: promptControl, Ctl: p.Ctl}
			return dialog.Run(nil)
		}
	}
	return p.cancelled()
}

// messageRows is how many lines the message field shows.
const messageRows = 4

// maxMessageRunes bounds a message typed or pasted in the field.
const maxMessageRunes = 20000

// NewMessageArea is the message field: a bubbles textarea, so multi-line
// editing and pasting work; enter sends, alt+enter (or ctrl+j) starts a
// new line.
func NewMessageArea(width int) *textarea.Model {
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

// messageKey edits the message, toggles run, or says it is to be sent
// (the prompt stays open: the view decides whether it goes now, waits
// for an answer about the pending actions, or has nothing to send) or
// cancelled.
func (p *promptDialog) messageKey(msg tea.KeyPressMsg) dialog.Action {
	switch {
	case key.Matches(msg, p.keys.Back, p.keys.Interrupt):
		return p.cancelled()
	case key.Matches(msg, p.keys.RunToggle):
		p.Ctl.Run = !p.Ctl.Run
		return dialog.Run(nil)
	case key.Matches(msg, p.keys.SendMessage):
		return dialog.Run(say(promptSubmittedMsg{p: p.Prompt}))
	}
	if msg.Text != "" {
		msg.Text = sanitize.Text(msg.Text)
	}
	a, _ := p.Area.Update(msg)
	p.Area = &a
	return dialog.Run(nil)
}

// messageSubmitted sends the message typed, unless there is nothing to
// send or the conversation cannot take it now; while actions wait it
// asks about them first.
func (m *Conversation) messageSubmitted(sent Prompt) tea.Cmd {
	p := m.prompt()
	if p == nil || p.Kind != PromptMessage {
		return nil
	}
	text := strings.TrimSpace(sent.Area.Value())
	if text == "" {
		return m.setFlash("message: nothing to send")
	}
	if why := m.controlRefusal(CtlMessage); why != "" {
		m.closePrompt()
		return m.setFlash("message: " + why + "; nothing sent")
	}
	p.Ctl.Text = text
	if cmd, held := m.holdForPending(p); held {
		return cmd
	}
	p.Ctl.pending = question{}
	return m.sendControl(p.Ctl)
}

// footerRows is how many lines the footer takes: the message field's
// while it is open, else one.
func (m *Conversation) footerRows() int {
	p := m.prompt()
	if p != nil && p.Kind == PromptMessage {
		return messageRows + 1
	}
	if p != nil && p.Kind == promptAnswer {
		return p.answerRows()
	}
	return 1
}

// RenderControl draws a control's prompt.
func (p Prompt) RenderControl(s theme.Styles, width int) string {
	switch p.Kind {
	case PromptPolicy:
		var b strings.Builder
		b.WriteString(s.Prompt.Render("confirmation policy: "))
		for i, name := range Policies {
			b.WriteString(s.Key.Render(string(rune('1'+i))) + " " + name + "  ")
		}
		return b.String() + s.Muted.Render("esc cancel")
	case promptPendingMessage:
		return p.renderPendingMessage(s)
	case PromptMessage:
		run := "enter sends and runs the agent"
		if !p.Ctl.Run {
			run = "enter appends it without running"
		}
		head := s.Prompt.Render("message: ")
		if len(p.Ctl.pending.ids) > 0 {
			head += s.Warn.Render(p.Ctl.effectWords()+"; enter asks first") + " · "
		}
		head += s.Muted.Render(run + " · tab " + map[bool]string{true: "append only", false: "run too"}[p.Ctl.Run] +
			" · alt+enter new line · esc cancel")
		p.Area.SetWidth(max(width, 10))
		return head + "\n" + p.Area.View()
	}
	if p.Ctl.What == CtlPolicy {
		return s.Warn.Render("Set the confirmation policy to "+p.Ctl.Policy+"? [y/n]") + " " +
			s.Muted.Render("(it decides which actions wait for a/x)")
	}
	return s.Warn.Render("Interrupt the run? [y/n]") + " " + s.Muted.Render("(cancels the LLM call in flight; the conversation pauses)")
}

// controlKeys enables the control keys in the active map where they
// apply, for the help bar; pressed while disabled they still say why.
func (m *Conversation) controlKeys(k *tui.KeyMap) {
	steer := m.steering() != nil && !m.feedDone
	k.PauseRun.SetEnabled(steer && m.controlRefusal(CtlPause) == "")
	k.ResumeRun.SetEnabled(steer && m.controlRefusal(CtlRun) == "")
	k.InterruptRun.SetEnabled(steer && m.controlRefusal(CtlInterrupt) == "")
	k.Message.SetEnabled(steer)
	k.Policy.SetEnabled(steer)
	prompt := m.promptKind()
	k.PolicyPick.SetEnabled(prompt == PromptPolicy)
	k.SendMessage.SetEnabled(prompt == PromptMessage)
	k.RunToggle.SetEnabled(prompt == PromptMessage)
}
