package fleetview

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"ohwatch/fleet"
	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
)

// fleetAsk is a control asked on the fleet table, bound to the
// conversations it names when it was asked: a re-sort, a filter or a new
// row never changes what it is sent to.
type fleetAsk struct {
	what    conversation.Control
	to      []fleetTarget
	all     bool            // "pause all running": the question names how many
	picking bool            // policy: waiting for its number
	policy  string          // policy: the one picked
	area    *textarea.Model // message: the field
	run     bool            // message: the agent goes on with it
}

// fleetTarget is one conversation a fleet control goes to.
type fleetTarget struct {
	ref   model.ConversationRef
	title string
	steer conversation.Steering
}

// active reports whether a question or the message field is open.
func (a fleetAsk) active() bool { return len(a.to) > 0 }

// fleetControlDoneMsg is the answer to a fleet control.
type fleetControlDoneMsg struct {
	tui.Addr
	text string
}

// fleetControlOf is the control a key asks for on the table.
func fleetControlOf(k tui.FleetKeyMap, msg tea.KeyPressMsg) (conversation.Control, bool) {
	switch {
	case key.Matches(msg, k.PauseRun):
		return conversation.CtlPause, true
	case key.Matches(msg, k.ResumeRun):
		return conversation.CtlRun, true
	case key.Matches(msg, k.InterruptRun):
		return conversation.CtlInterrupt, true
	case key.Matches(msg, k.Message):
		return conversation.CtlMessage, true
	case key.Matches(msg, k.Policy):
		return conversation.CtlPolicy, true
	}
	return 0, false
}

// steerOf is the controls of a row's conversation; nil when its source
// offers none.
func (f *Fleet) steerOf(ref model.ConversationRef) conversation.Steering {
	if f.opts.Steer == nil {
		return nil
	}
	return f.opts.Steer(ref)
}

// controlKey answers a control's key on the selected row.
func (f *Fleet) controlKey(what conversation.Control) tea.Cmd {
	r, ok := f.current()
	if !ok {
		return nil
	}
	title := fleet.ColTitle.Text(r, f.now)
	steer := f.steerOf(r.Ref)
	if why := fleetRefusal(what, r, steer); why != "" {
		f.flash = what.Name() + ": “" + title + "”: " + why + "; nothing sent"
		return nil
	}
	ask := fleetAsk{what: what, to: []fleetTarget{{ref: r.Ref, title: title, steer: steer}}, run: true}
	switch what {
	case conversation.CtlPause, conversation.CtlRun:
		return f.sendFleet(ask)
	case conversation.CtlPolicy:
		ask.picking = true
	case conversation.CtlMessage:
		ask.area = conversation.NewMessageArea(f.width)
	}
	f.ask = ask
	return nil
}

// pauseAll asks about pausing every running conversation the rows show.
func (f *Fleet) pauseAll() tea.Cmd {
	ask := fleetAsk{what: conversation.CtlPause, all: true}
	for _, r := range f.rows {
		if r.Verdict.Status != model.StatusRunning || r.Paused {
			continue
		}
		if s := f.steerOf(r.Ref); s != nil {
			ask.to = append(ask.to, fleetTarget{ref: r.Ref, title: fleet.ColTitle.Text(r, f.now), steer: s})
		}
	}
	if len(ask.to) == 0 {
		f.flash = "pause all: no running conversation with controls among the rows shown; nothing sent"
		return nil
	}
	f.ask = ask
	return nil
}

// fleetRefusal says why a control does not apply to a row; "" when it
// does.
func fleetRefusal(what conversation.Control, r fleet.Row, steer conversation.Steering) string {
	if steer == nil {
		return "its source offers no controls here (open it: enter)"
	}
	if r.Paused {
		// Resuming a Cloud sandbox is asked for when it is opened.
		return "its sandbox is paused: open it to resume (enter)"
	}
	status := r.Verdict.Status
	switch what {
	case conversation.CtlPause, conversation.CtlInterrupt:
		if status != model.StatusRunning && status != model.StatusWaitingForConfirmation {
			return "it is " + model.StatusWords(status) + ", not running"
		}
	case conversation.CtlRun:
		if status == model.StatusRunning {
			return "it is already running"
		}
	case conversation.CtlMessage:
		if status == model.StatusWaitingForConfirmation {
			// A message may approve what waits (SDK ≤1.43.1): the view
			// shows the actions and asks first (steer_pending.go).
			return "it waits for confirmation and a message may approve its actions: open it (enter), where M asks first"
		}
	}
	return ""
}

// answerControl answers a key while a fleet control asks or takes a
// message.
func (f *Fleet) answerControl(msg tea.KeyPressMsg) tea.Cmd {
	a, k := &f.ask, f.keys
	switch {
	case a.what == conversation.CtlMessage:
		return f.messageKey(msg)
	case a.picking && key.Matches(msg, k.PolicyPick):
		if d := msg.String(); len(d) == 1 && int(d[0]-'1') < len(conversation.Policies) {
			a.policy, a.picking = conversation.Policies[d[0]-'1'], false
			return nil
		}
	case !a.picking && key.Matches(msg, k.Confirm):
		return f.sendFleet(*a)
	}
	f.ask = fleetAsk{}
	f.flash = "cancelled"
	return nil
}

// messageKey edits, sends or cancels the message on the table.
func (f *Fleet) messageKey(msg tea.KeyPressMsg) tea.Cmd {
	a, k := &f.ask, f.keys
	switch {
	case key.Matches(msg, k.Back):
		f.ask = fleetAsk{}
		f.flash = "message not sent"
		return nil
	case key.Matches(msg, k.RunToggle):
		a.run = !a.run
		return nil
	case key.Matches(msg, k.SendMessage):
		if strings.TrimSpace(a.area.Value()) == "" {
			f.flash = "message: nothing to send"
			return nil
		}
		return f.sendFleet(*a)
	}
	if msg.Text != "" {
		msg.Text = sanitize.Text(msg.Text)
	}
	area, _ := a.area.Update(msg)
	a.area = &area
	return nil
}

// pasteMessage puts pasted text into the message field.
func (f *Fleet) pasteMessage(msg tea.PasteMsg) {
	area, _ := f.ask.area.Update(tea.PasteMsg{Content: sanitize.Text(msg.Content)})
	f.ask.area = &area
}

// sendFleet sends a control to every conversation it names, one after
// another in a command, and reports how it went.
func (f *Fleet) sendFleet(a fleetAsk) tea.Cmd {
	f.ask = fleetAsk{}
	f.flash = a.what.Name() + ": sending to " + format.Plural(len(a.to), "conversation") + "…"
	to := f.Addr()
	text := ""
	if a.area != nil {
		text = strings.TrimSpace(a.area.Value())
	}
	return conversation.WithProgress(to, func(say func(string)) tea.Msg {
		var done int
		var failed []string
		for _, t := range a.to {
			ask := conversation.ControlAsk{What: a.what, To: t.steer, Policy: a.policy, Text: text, Run: a.run,
				Say: func(s string) { say(a.what.Name() + ": “" + t.title + "”: " + s) }}
			ctx, cancel := ask.ControlContext()
			result, err := ask.Send(ctx)
			cancel()
			if err != nil {
				failed = append(failed, "“"+t.title+"”: "+conversation.SanitizeErr(err))
				continue
			}
			done++
			if len(a.to) == 1 {
				return fleetControlDoneMsg{Addr: to, text: "“" + t.title + "”: " + result}
			}
		}
		out := fmt.Sprintf("%s: %d of %d accepted", a.what.Name(), done, len(a.to))
		if len(failed) > 0 {
			out += "; " + strings.Join(failed, "; ")
		}
		return fleetControlDoneMsg{Addr: to, text: out}
	})
}

// controlLines are the footer while a control asks or takes a message.
func (f *Fleet) controlLines(w int) []string {
	s, a := f.styles, f.ask
	name := "“" + a.to[0].title + "”"
	switch {
	case a.what == conversation.CtlMessage:
		p := conversation.Prompt{Kind: conversation.PromptMessage, Ctl: conversation.ControlAsk{Run: a.run}, Area: a.area}
		lines := strings.Split(p.RenderControl(s, w), "\n")
		lines[0] = s.Prompt.Render("to "+name+": ") + lines[0]
		for i := range lines {
			lines[i] = f.Cells.Fit(lines[i], w)
		}
		return lines
	case a.picking:
		p := conversation.Prompt{Kind: conversation.PromptPolicy}
		return []string{f.Cells.Fit(s.Prompt.Render(name+" ")+p.RenderControl(s, w), w)}
	case a.all:
		return []string{f.Cells.Fit(s.Warn.Render(fmt.Sprintf("Pause all %s running shown? [y/n]", format.Plural(len(a.to), "conversation"))), w)}
	case a.what == conversation.CtlPolicy:
		return []string{f.Cells.Fit(s.Warn.Render("Set the confirmation policy of "+name+" to "+a.policy+"? [y/n]"), w)}
	}
	return []string{f.Cells.Fit(s.Warn.Render("Interrupt "+name+"? [y/n]")+" "+s.Muted.Render("(cancels its LLM call in flight)"), w)}
}
