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

// warnList is the open list of warnings and its highlighted line.
type warnList struct {
	open bool
	at   int
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

// warnKey answers a key while the list is open: j/k move, enter jumps to
// the event, esc, q and W close.
func (m *Conversation) warnKey(msg tea.KeyPressMsg, k tui.KeyMap) tea.Cmd {
	switch {
	case key.Matches(msg, k.Back, k.Quit, m.keys.Warnings):
		m.warnList.open = false
	case key.Matches(msg, k.Down):
		m.warnList.at = min(m.warnList.at+1, len(m.warns)-1)
	case key.Matches(msg, k.Up):
		m.warnList.at = max(m.warnList.at-1, 0)
	case key.Matches(msg, k.Top):
		m.warnList.at = 0
	case key.Matches(msg, k.Bottom):
		m.warnList.at = len(m.warns) - 1
	case key.Matches(msg, k.Inspect, k.Submit):
		m.warnList.open = false
		if len(m.warns) == 0 {
			return nil
		}
		i := m.warningEvent(m.warns[m.warnList.at])
		if i < 0 {
			return m.setFlash("this warning came before any event")
		}
		m.follow = false
		m.travel(i)
	}
	return nil
}

// openWarnings opens the list, or says there is none.
func (m *Conversation) openWarnings() tea.Cmd {
	if len(m.warns) == 0 {
		return m.setFlash("no warnings")
	}
	m.warnList = warnList{open: true, at: min(m.warnList.at, len(m.warns)-1)}
	return nil
}

// warnPane draws the list of warnings in the list's place.
type warnPane struct {
	box
	cells  text.Cells
	styles *theme.Styles
	lines  []string
	at     int
}

// warnOf gives the list what it draws: one line per warning, "#7  text".
func (m *Conversation) warnOf() *warnPane {
	lines := make([]string, len(m.warns))
	for k, w := range m.warns {
		where := "—"
		if i := m.warningEvent(w); i >= 0 {
			where = format.Event(i)
		}
		lines[k] = padRight(where, 7) + w.text
	}
	return &warnPane{styles: &m.styles, cells: m.Cells, lines: lines, at: m.warnList.at}
}

// ShortHelp implements Pane.
func (p *warnPane) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "jump to its event")),
		key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "move")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// View implements Pane: exactly width×height cells, the highlighted line
// kept in view.
func (p *warnPane) View() string {
	s := p.styles
	rows := max(p.height-1, 1)
	top := max(0, min(p.at-rows/2, len(p.lines)-rows))
	out := []string{s.PaneFocus.Render("▌ Warnings") + s.Muted.Render(" · "+format.Plural(len(p.lines), "warning")+" · enter jumps to its event · esc closes")}
	for k := top; k < min(top+rows, len(p.lines)); k++ {
		line := p.cells.Truncate(p.lines[k], max(p.width-3, 1), "…")
		if k == p.at {
			out = append(out, s.Selected.Render(p.cells.Fit("› "+line, p.width)))
			continue
		}
		out = append(out, "  "+line)
	}
	return p.cells.Block(strings.Join(out, "\n"), p.width, p.height)
}

// padRight pads s with spaces to n bytes (s is ASCII: "#12", "—" aside).
func padRight(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}
