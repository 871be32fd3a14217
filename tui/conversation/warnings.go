package conversation

import (
	"regexp"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// The header's "N warnings" can be read: W lists them, each with the
// event it is about, and enter jumps there. A warning names its event
// when its text holds an event id the log knows (the files reader's "index
// gap … before event-00007-<id>.json"); else it is about the event it
// arrived after.

// warning is one warning the source gave, as the view keeps it.
type warning struct {
	text string
	// after is how many events the log held when it arrived.
	after int
}

// warningsID is the warnings list's ID on the view's overlay.
const warningsID = "warnings"

// warnList is the list of warnings as a dialog, drawn in the list's
// place: j/k move, enter jumps to the event (warningChosenMsg), esc, q
// and W close; closing tells the view the line it was left on.
type warnList struct {
	box
	to     tui.Addr
	cells  text.Cells
	styles *theme.Styles
	keys   tui.KeyMap // the view's keys as they apply now (fitDialogs)
	toggle key.Binding
	// lines are the warnings, "#7  text" (fitDialogs keeps them new).
	lines []string
	at    int
}

// warningChosenMsg asks the view to go to the event of its warning at.
type warningChosenMsg struct {
	tui.Addr
	at int
}

// warningsClosedMsg is the line the closed list was left on.
type warningsClosedMsg struct {
	tui.Addr
	at int
}

// eventIDPattern finds the ids in a warning's text: upstream event ids are
// UUIDs, with or without their dashes.
var eventIDPattern = regexp.MustCompile(`[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}`)

// addWarnings keeps a batch's warnings, each sanitised: a warning's text
// may quote what the source read.
func (m *Conversation) addWarnings(ws []string) {
	for _, w := range ws {
		m.warns = append(m.warns, warning{text: sanitize.Line(w), after: m.Log.Len()})
	}
}

// warningEvent is the event a warning is about, -1 for none (it came
// before any event).
func (m *Conversation) warningEvent(w warning) int {
	for _, id := range eventIDPattern.FindAllString(w.text, 4) {
		if i, ok := m.Log.IndexOf(id); ok {
			return i
		}
	}
	if w.after > 0 {
		return min(w.after, m.Log.Len()) - 1
	}
	if m.Log.Len() > 0 {
		return 0
	}
	return -1
}

// ID implements dialog.Dialog.
func (w *warnList) ID() string { return warningsID }

// Update implements dialog.Dialog: the list reads every key; the mouse
// and the rest are the view's.
func (w *warnList) Update(msg tea.Msg) dialog.Action {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return dialog.Pass()
	}
	k, last := w.keys, len(w.lines)-1
	switch {
	case key.Matches(press, k.Back, k.Quit, w.toggle):
		return dialog.Close(w.closed())
	case key.Matches(press, k.Down):
		w.at = min(w.at+1, last)
	case key.Matches(press, k.Up):
		w.at = max(w.at-1, 0)
	case key.Matches(press, k.Top):
		w.at = 0
	case key.Matches(press, k.Bottom):
		w.at = last
	case key.Matches(press, k.Inspect, k.Submit):
		to, at := w.to, w.at
		return dialog.Close(tea.Batch(w.closed(), func() tea.Msg { return warningChosenMsg{Addr: to, at: at} }))
	}
	return dialog.Run(nil)
}

// closed tells the view where the list was left.
func (w *warnList) closed() tea.Cmd {
	to, at := w.to, w.at
	return func() tea.Msg { return warningsClosedMsg{Addr: to, at: at} }
}

// answer implements dialogAnswer.
func (msg warningsClosedMsg) answer(m *Conversation) tea.Cmd {
	m.warnAt = msg.at
	return nil
}

// answer implements dialogAnswer: the cursor goes to the warning's event.
func (msg warningChosenMsg) answer(m *Conversation) tea.Cmd {
	if msg.at < 0 || msg.at >= len(m.warns) {
		return nil
	}
	i := m.warningEvent(m.warns[msg.at])
	if i < 0 {
		return m.setFlash("this warning came before any event")
	}
	m.follow = false
	m.travel(i)
	return nil
}

// openWarnings opens the list, or says there is none.
func (m *Conversation) openWarnings() tea.Cmd {
	if len(m.warns) == 0 {
		return m.setFlash("no warnings")
	}
	m.overlay.Open(&warnList{to: m.Addr(), styles: &m.styles, cells: m.Cells, toggle: m.keys.Warnings,
		at: min(m.warnAt, len(m.warns)-1)})
	m.fitDialogs(m.activeKeys(m.state()))
	return nil
}

// warnLines are the list's lines: one per warning, "#7  text".
func (m *Conversation) warnLines() []string {
	lines := make([]string, len(m.warns))
	for k, w := range m.warns {
		where := "—"
		if i := m.warningEvent(w); i >= 0 {
			where = format.Event(i)
		}
		lines[k] = padRight(where, 7) + w.text
	}
	return lines
}

// ShortHelp implements dialog.Dialog.
func (w *warnList) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "jump to its event")),
		key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "move")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// View implements dialog.Dialog: exactly width×height cells, the
// highlighted line kept in view.
func (w *warnList) View() string {
	s := w.styles
	rows := max(w.height-1, 1)
	top := max(0, min(w.at-rows/2, len(w.lines)-rows))
	out := []string{s.PaneFocus.Render("▌ Warnings") + s.Muted.Render(" · "+format.Plural(len(w.lines), "warning")+" · enter jumps to its event · esc closes")}
	for k := top; k < min(top+rows, len(w.lines)); k++ {
		line := w.cells.Truncate(w.lines[k], max(w.width-3, 1), "…")
		if k == w.at {
			out = append(out, s.Selected.Render(w.cells.Fit("› "+line, w.width)))
			continue
		}
		out = append(out, "  "+line)
	}
	return w.cells.Block(strings.Join(out, "\n"), w.width, w.height)
}

// padRight pads s with spaces to n bytes (s is ASCII: "#12", "—" aside).
func padRight(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}
