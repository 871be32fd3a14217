package tui

import (
	tea "charm.land/bubbletea/v2"
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
	switch msg.String() {
	case "esc", "enter", "f", "q":
		m.picker.open = false
	case "j", "down":
		m.picker.at = min(m.picker.at+1, len(kinds)-1)
	case "k", "up":
		m.picker.at = max(m.picker.at-1, 0)
	case "space", "x":
		f = f.toggled(kinds[m.picker.at])
	case "i":
		f.invert = !f.invert
	case "c":
		f.picked = map[string]bool{}
		f.invert = false
	case "F":
		f.hideNoise = !f.hideNoise
	}
	m.setFilter(f)
	return nil
}

// Render draws the checklist of kinds.
func (p kindPicker) Render(m *Conversation, width, height int) string {
	s := m.styles
	lines := []string{s.PaneFocus.Render("▌ Filter by kind") + s.Muted.Render("  space pick · i invert · c clear · F noise · esc done")}
	mode := "show only the picked kinds"
	if m.filter.invert {
		mode = "hide the picked kinds"
	}
	if !m.filter.active() {
		mode = "nothing picked: every kind shows"
	}
	lines = append(lines, s.Muted.Render(mode))
	for k, kind := range allKinds() {
		box := "[ ]"
		if m.filter.picked[kind] {
			box = "[x]"
		}
		line := box + " " + kind
		if isNoise(kind) && m.filter.hideNoise {
			line += s.Muted.Render("  (noise: hidden by F)")
		}
		if k == p.at {
			line = s.Selected.Render(s.Glyphs.Cursor + " " + line)
		} else {
			line = "  " + line
		}
		lines = append(lines, line)
	}
	return fit(joinLines(lines), width, height)
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
