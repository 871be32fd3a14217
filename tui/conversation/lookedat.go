package conversation

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/aymanbagabas/go-udiff"

	"ohwatch/model"
	"ohwatch/tui"
)

// lookedAt is the part of event ev a person looks at in the inspector, as
// plain text, and what to call it: a terminal action's command, an
// observation's output, a file edit's diff, a message's text, a finish's
// message, a thought, an error. It is what the copy-text key copies;
// ok is false for an event with none of these (its JSON is what there is).
func lookedAt(ev model.Event) (what, text string, ok bool) {
	detail, err := ev.Detail()
	if err != nil {
		return "", "", false
	}
	if c, isEdit := model.FileEditOf(detail); isEdit {
		name := strings.TrimPrefix(c.Path, "/")
		d := udiff.Unified("a/"+name, "b/"+name, tui.WithNewline(c.Old), tui.WithNewline(c.New))
		return "diff", d, d != ""
	}
	switch d := detail.(type) {
	case *model.MessageEvent:
		return "message", contentText(d.LLMMessage.Content), true
	case *model.ActionEvent:
		switch a := d.Action.(type) {
		case *model.TerminalAction:
			return "command", a.Command, true
		case *model.FinishAction:
			return "message", a.Message, true
		case *model.ThinkAction:
			return "thought", a.Thought, true
		}
		if t := contentText(d.Thought); t != "" {
			return "thought", t, true
		}
	case *model.ObservationEvent:
		if r, isResult := d.Observation.(interface{ Result() *model.ObservationBase }); isResult && r.Result() != nil {
			return "output", contentText(r.Result().Content), true
		}
	case *model.AgentErrorEvent:
		return "error", d.Error, true
	case *model.ConversationErrorEvent:
		return "error", d.Detail, true
	case *model.UserRejectObservation:
		return "reason", d.RejectionReason, true
	}
	return "", "", false
}

// copyLookedAt copies what the inspector shows of the event (lookedAt),
// as the copy key copies its JSON: with OSC 52 and a native clipboard
// tool. An event with nothing but its JSON has its JSON copied.
func (m *Conversation) copyLookedAt() tea.Cmd {
	i := m.eventForAction()
	if i < 0 {
		return nil
	}
	what, text, ok := lookedAt(m.Log.Event(i))
	if !ok {
		return m.copyEvent()
	}
	data := []byte(text)
	flash := m.setFlash("copied " + tui.Ordinal(i) + " " + what + " (" + Itoa(len(data)) + " bytes) via OSC 52")
	return tea.Batch(tea.SetClipboard(text), labelled(nativeCopy(m.Addr(), data, i), what), flash)
}

// labelled names what a native copy copied, for the footer.
func labelled(copy tea.Cmd, what string) tea.Cmd {
	return func() tea.Msg {
		msg := copy()
		if done, ok := msg.(clipboardDoneMsg); ok {
			done.what = what
			return done
		}
		return msg
	}
}
