package tui

import (
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/theme"
)

// promptKind says what the footer's input line is asking for.
type promptKind int

const (
	promptNone promptKind = iota
	promptJump
	promptSearch
	promptConfirm // y/n before accepting or rejecting pending actions
	promptExport  // pick an export format
)

// prompt is the one-line input shown in place of the footer.
type prompt struct {
	kind promptKind
	text string
	q    question // for promptConfirm: what is asked
	note string   // for promptConfirm: the warning shown with the question
}

// active reports whether a prompt is open.
func (p prompt) active() bool { return p.kind != promptNone }

// Render draws the prompt line.
func (p prompt) Render(s theme.Styles) string {
	switch p.kind {
	case promptJump:
		return s.Prompt.Render(":") + p.text + "█" + s.Muted.Render("  index (1-based) or time HH:MM:SS / ISO · enter jump · esc cancel")
	case promptSearch:
		return s.Prompt.Render("/") + p.text + "█" + s.Muted.Render("  enter search all events · esc cancel")
	case promptConfirm:
		verb := "Reject"
		if p.q.accept {
			verb = "Accept"
		}
		noun := "pending action "
		if len(p.q.indices) != 1 {
			noun = "pending actions "
		}
		return s.Warn.Render(verb+" "+noun+ordinals(p.q.indices)+"? [y/n]") + " " + s.Muted.Render(p.note)
	case promptExport:
		return s.Prompt.Render("export as: ") + s.Key.Render("m") + " markdown  " + s.Key.Render("j") + " state json  " +
			s.Key.Render("l") + " events jsonl  " + s.Muted.Render("esc cancel")
	}
	return ""
}

// edit applies a key to the prompt's text; it reports whether the key was
// an edit (typing, backspace) rather than a command.
func (p prompt) edit(msg tea.KeyPressMsg) (prompt, bool) {
	switch msg.String() {
	case "backspace", "ctrl+h":
		if p.text != "" {
			_, size := utf8.DecodeLastRuneInString(p.text)
			p.text = p.text[:len(p.text)-size]
		}
		return p, true
	case "ctrl+u":
		p.text = ""
		return p, true
	}
	if msg.Text != "" && len(p.text) < 200 {
		p.text += model.SanitizeLine(msg.Text)
		return p, true
	}
	return p, false
}

// promptKey answers a key while a prompt is open.
func (m Model) promptKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	p := m.input
	switch p.kind {
	case promptConfirm:
		switch msg.String() {
		case "y", "Y":
			return m.answerConfirm(p.q)
		default:
			m.input = prompt{}
			return m.setFlash("cancelled")
		}
	case promptExport:
		formats := map[string]string{"m": "md", "j": "json", "l": "jsonl"}
		m.input = prompt{}
		if f, ok := formats[msg.String()]; ok {
			return m.startExport(f)
		}
		return m, nil
	}
	switch msg.String() {
	case "esc", "ctrl+c":
		m.input = prompt{}
		return m, nil
	case "enter":
		m.input = prompt{}
		if p.kind == promptJump {
			return m.jumpTo(p.text)
		}
		return m.startSearch(p.text)
	}
	m.input, _ = p.edit(msg)
	return m, nil
}
