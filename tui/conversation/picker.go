package conversation

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// pickerID is the kind picker's ID on the view's overlay.
const pickerID = "kinds"

// kindPicker is the kind filter as a dialog: a checklist of kinds with an
// invert flag. Each change goes to the view at once (kindsPickedMsg), so
// the list behind it follows as kinds are picked; closing it tells the
// view where it was left, so it opens there again.
type kindPicker struct {
	box
	to     tui.Addr
	cells  text.Cells
	keys   tui.KeyMap // the view's keys as they apply now (fitDialogs)
	styles *theme.Styles
	filter kindFilter
	at     int // the highlighted kind
	// gen is the opening it is (pickerState.gen), seq counts the
	// filters it sent.
	gen, seq int
}

// pickerState is what the view keeps of its kind pickers: the kind the
// last one was left at, the opening of the one open now (gen) and the
// last of its filters the view took (seq). The picker's messages come
// from commands, which may answer in any order: a filter sent before
// one the view already took, or by a picker closed since, is dropped.
type pickerState struct{ at, gen, seq int }

// kindsPickedMsg is a filter the picker made, the seq-th of its opening
// gen: the view shows it. closed says the picker closed, on kind at.
type kindsPickedMsg struct {
	tui.Addr
	gen, seq int
	filter   kindFilter
	closed   bool
	at       int
}

// answer implements dialogAnswer.
func (msg kindsPickedMsg) answer(m *Conversation) tea.Cmd {
	p := &m.picking
	if msg.gen != p.gen || msg.seq <= p.seq {
		return nil
	}
	p.seq = msg.seq
	if msg.closed {
		p.at = msg.at
	}
	m.setFilter(msg.filter)
	return nil
}

// openPicker opens the kind picker on the view's filter, on the kind it
// was left at.
func (m *Conversation) openPicker() {
	m.picking.gen++
	m.picking.seq = 0
	m.overlay.Open(&kindPicker{to: m.Addr(), filter: m.filter, at: m.picking.at, gen: m.picking.gen, styles: &m.styles, cells: m.Cells})
	m.fitDialogs(m.activeKeys(m.state()))
}

// sent is the command that hands the picker's filter to the view.
func (p *kindPicker) sent(closed bool) tea.Cmd {
	p.seq++
	msg := kindsPickedMsg{Addr: p.to, gen: p.gen, seq: p.seq, filter: p.filter, closed: closed, at: p.at}
	return func() tea.Msg { return msg }
}

// ID implements dialog.Dialog.
func (p *kindPicker) ID() string { return pickerID }

// Update implements dialog.Dialog: the picker reads every key; the mouse
// and the rest are the view's.
func (p *kindPicker) Update(msg tea.Msg) dialog.Action {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return dialog.Pass()
	}
	return p.key(press)
}

// key answers a key: move, pick, invert, clear, noise, or close.
func (p *kindPicker) key(msg tea.KeyPressMsg) dialog.Action {
	f := p.filter
	kinds := allKinds()
	k := p.keys
	switch {
	case key.Matches(msg, k.Back, k.Submit, k.Inspect, k.Filter, k.Quit):
		return dialog.Close(p.sent(true))
	case key.Matches(msg, k.Down):
		p.at = min(p.at+1, len(kinds)-1)
		return dialog.Run(nil)
	case key.Matches(msg, k.Up):
		p.at = max(p.at-1, 0)
		return dialog.Run(nil)
	case key.Matches(msg, k.Pick):
		f = f.toggled(kinds[p.at])
	case key.Matches(msg, k.Invert):
		f.invert = !f.invert
	case key.Matches(msg, k.Clear):
		f.picked = map[string]bool{}
		f.invert = false
	case key.Matches(msg, k.Noise):
		f.hideNoise = !f.hideNoise
	default:
		return dialog.Run(nil) // read, and nothing else: the picker has every key
	}
	p.filter = f
	return dialog.Run(p.sent(false))
}

// ShortHelp implements dialog.Dialog.
func (p *kindPicker) ShortHelp() []key.Binding { return pickerKeys(p.keys) }

// View implements dialog.Dialog: exactly width×height cells.
func (p *kindPicker) View() string {
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
