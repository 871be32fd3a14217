package tui

import (
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// widthMethod is how the terminal counts the cells of a grapheme cluster:
// per codepoint (wcwidth, the renderer's default: 👍🏽 takes 4 cells) or by
// cluster (2 cells) once the terminal reports Unicode core mode 2027. The
// layout must measure as the renderer and the terminal draw, or a line of
// emoji pushes the pane divider out of place. It belongs to the one
// terminal the process draws on, so it is kept once, not per model copy;
// the zero value is wcwidth, as the renderer starts.
var widthMethod atomic.Uint32

// cellMethod is the terminal's width model.
func cellMethod() ansi.Method { return ansi.Method(widthMethod.Load()) }

// setCellMethod changes the width model (the terminal reported mode 2027,
// or a test draws under the other model).
func setCellMethod(m ansi.Method) { widthMethod.Store(uint32(m)) }

// textWidth is the number of cells s takes on the terminal; escape
// sequences take none.
func textWidth(s string) int { return cellMethod().StringWidth(s) }

// unicodeCoreReport reports whether msg is the terminal's answer that it
// supports mode 2027 (grapheme clustering), the answer on which Bubble Tea
// switches its renderer to measuring clusters.
func unicodeCoreReport(msg tea.ModeReportMsg) bool {
	return msg.Mode == ansi.ModeUnicodeCore &&
		(msg.Value == ansi.ModeReset || msg.Value == ansi.ModeSet || msg.Value == ansi.ModePermanentlySet)
}

// truncateCells cuts s to w cells under the terminal's width model, ending
// it with tail. ansi's Truncate returns s whole when its grapheme width
// fits, even under wcwidth where it does not; padding s past w makes it do
// the cut, which falls inside s, so the padding never shows.
func truncateCells(s string, w int, tail string) string {
	m := cellMethod()
	if m.StringWidth(s) <= w {
		return s
	}
	return m.Truncate(s+strings.Repeat(" ", w+1), w, tail)
}

// pad makes s exactly w cells, aligned left or right.
func pad(s string, w int, right bool) string {
	if right {
		s = truncate(s, w)
		return strings.Repeat(" ", max(w-textWidth(s), 0)) + s
	}
	return fitLine(s, w)
}
