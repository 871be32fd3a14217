package fleetview

import (
	"ohwatch/tui"
	"ohwatch/tui/dialog"
)

// The table's dialogs, on its overlay: the key reference (tui.Help,
// fleet_help.go), drawn over the whole screen, and the question about a
// paused sandbox (fleet_resume.go), drawn as the footer.

// fitDialogs gives the open dialogs what may have changed under them:
// the screen's size, styles and width model.
func (f *Fleet) fitDialogs() {
	if h, ok := dialog.As[*tui.Help](&f.overlay); ok {
		h.Configure(f.helpConfig())
		h.SetSize(max(f.width, 1), max(f.height, 1))
	}
	if q, ok := dialog.As[*resumeQuestion](&f.overlay); ok {
		q.now, q.cells = f.now, f.Cells
	}
}
