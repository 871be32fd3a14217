package conversation

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// kindPicker is the kind filter: a checklist of kinds with an invert flag.
// It edits the model's filter directly, so the list behind it updates as
// kinds are picked.
type kindPicker struct {
	open bool
	at   int // the highlighted kind
}

// handleKey answers a key while the picker is open.
func (m *Conversation) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	f := m.filter
	kinds := allKinds()
	k := m.activeKeys(m.state())
	switch {
	case key.Matches(msg, k.Back, k.Submit, k.Inspect, k.Filter, k.Quit):
		m.picker.open = false
	case key.Matches(msg, k.Down):
		m.picker.at = min(m.picker.at+1, len(kinds)-1)
	case key.Matches(msg, k.Up):
		m.picker.at = max(m.picker.at-1, 0)
	case key.Matches(msg, k.Pick):
		f = f.toggled(kinds[m.picker.at])
	case key.Matches(msg, k.Invert):
		f.invert = !f.invert
	case key.Matches(msg, k.Clear):
		f.picked = map[string]bool{}
		f.invert = false
	case key.Matches(msg, k.Noise):
		f.hideNoise = !f.hideNoise
	}
	m.setFilter(f)
	return nil
}

// pickerPane draws the checklist of kinds: the filter being edited, the
// highlighted kind.
type pickerPane struct {
	box
	cells  text.Cells
	km     *tui.KeyMap
	styles *theme.Styles
	filter kindFilter
	at     int
}

// pickerOf gives the picker what it draws.
func (m *Conversation) pickerOf(k *tui.KeyMap) *pickerPane {
	return &pickerPane{km: k, styles: &m.styles, cells: m.Cells, filter: m.filter, at: m.picker.at}
}

// ShortHelp implements Pane.
func (p *pickerPane) ShortHelp() []key.Binding { return pickerKeys(*p.km) }

// View implements Pane: exactly width×height cells.
func (p *pickerPane) View() string {
	width, height := p.width, p.height
	s := p.styles
	lines := []string{s.PaneFocus.Render("▌ Filter by kind") + s.Muted.Render("  space pick · i invert · c clear · F noise · esc done")}
	mode := "show only the picked kinds"
	if p.filter.invert {
		mode = "hide the picked kinds"
	}
	if !p.filter.active() {
		mode = "nothing picked: every kind shows"
	}
	lines = append(lines, s.Muted.Render(mode))
	for k, kind := range allKinds() {
		box := "[ ]"
		if p.filter.picked[kind] {
			box = "[x]"
		}
		line := box + " " + kind
		if isNoise(kind) && p.filter.hideNoise {
			line += s.Muted.Render("  (noise: hidden by F)")
		}
		if k == p.at {
			line = s.Selected.Render(s.Glyphs.Cursor + " " + line)
		} else {
			line = "  " + line
		}
		lines = append(lines, line)
	}
	return p.cells.Block(joinLines(lines), width, height)
}

// joinLines joins lines with newlines.
func joinLines(lines []string) string {
	out := ""
	for k, l := range lines {
		if k > 0 {
			out += "\n"
		}
		out += l
	}
	return out
}
