package conversation

import (
	tea "charm.land/bubbletea/v2"

	"ohwatch/tui"
	"ohwatch/tui/dialog"
)

// The view's dialogs (the key reference, the kind picker, the warnings
// list) live on its overlay. The view tells them what changed under them
// (fitDialogs); they tell the view what they did only through messages,
// each of which says how the view answers it (dialogAnswer).

// dialogAnswer is a message one of the view's dialogs sends it: a filter
// picked, a warning chosen, where a list was left.
type dialogAnswer interface {
	answer(m *Conversation) tea.Cmd
}

// fitDialogs gives the open dialogs what changed under them since they
// opened: their area, the keys as they apply now (k), the width model,
// what the help and the warnings list say. The view calls it before a
// dialog reads a key and before it draws them.
func (m *Conversation) fitDialogs(k tui.KeyMap) {
	if h, ok := dialog.As[*tui.Help](&m.overlay); ok {
		h.Configure(m.helpConfig(k))
		a := m.helpArea()
		h.SetSize(a.w, a.h)
	}
	if p, ok := dialog.As[*kindPicker](&m.overlay); ok {
		p.keys, p.cells = k, m.Cells
	}
	if w, ok := dialog.As[*warnList](&m.overlay); ok {
		w.keys, w.cells, w.lines = k, m.Cells, m.warnLines()
	}
}

// listCovered reports whether the help or the kind picker is drawn over
// the list, where the mouse then neither scrolls nor selects. (The
// warnings list, drawn there too, has always let the mouse through.)
func (m *Conversation) listCovered() bool {
	return m.overlay.IsOpen(tui.HelpID) || m.overlay.IsOpen(pickerID)
}

// listDialog is the dialog drawn in the list's place: one of the Body (it
// covers the list too, and nothing opens over the help, which reads every
// key), else one of the Main area.
func (m *Conversation) listDialog() dialog.Dialog {
	if d := m.overlay.TopAt(dialog.Body); d != nil {
		return d
	}
	return m.overlay.TopAt(dialog.Main)
}
