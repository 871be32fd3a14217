package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/tui/text"
)

// The terminal's width model (text.Cells) is a value each screen holds in
// its Common: the router keeps the one the terminal reported and hands it
// to every screen it keeps and to each it pushes, as it does the size; a
// screen hands it to the panes it draws, and on, with its Common, to the
// screens it opens. Nothing in the process holds it, so two
// screens, or two tests, under different models draw side by side.

// Measured is a screen that measures text under the terminal's width
// model; the router tells it the model when the terminal reports one and
// when the screen is pushed. A change returns the work to redo off the UI
// (a conversation's inspector wraps its markdown again).
type Measured interface{ SetCells(c text.Cells) tea.Cmd }

// unicodeCoreReport reports whether msg is the terminal's answer that it
// supports mode 2027 (grapheme clustering), the answer on which Bubble Tea
// switches its renderer to measuring clusters.
func unicodeCoreReport(msg tea.ModeReportMsg) bool {
	return msg.Mode == ansi.ModeUnicodeCore &&
		(msg.Value == ansi.ModeReset || msg.Value == ansi.ModeSet || msg.Value == ansi.ModePermanentlySet)
}
