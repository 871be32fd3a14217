package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"ohwatch/theme"
)

// helpView is the full key reference, generated from the key map so it can
// never disagree with what the keys do.
type helpView struct {
	keys   KeyMap
	styles theme.Styles
	scroll int
}

// lines returns the reference as one column of lines, group by group, and
// the width a column needs.
func (h helpView) lines() ([]string, int) {
	s := h.styles
	keyW := 0
	for _, g := range h.keys.helpGroups() {
		for _, b := range g.bindings {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
	}
	colW := 0
	var out []string
	for _, g := range h.keys.helpGroups() {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, s.PaneFocus.Render(g.title))
		for _, b := range g.bindings {
			hp := b.Help()
			colW = max(colW, keyW+2+ansi.StringWidth(hp.Desc))
			out = append(out, s.Key.Render(fitLine(hp.Key, keyW))+"  "+s.KeyDesc.Render(hp.Desc))
		}
	}
	return out, colW + 3
}

// Render implements the pane contract: exactly width×height cells. The
// lines flow into as many columns as the width allows; what does not fit
// scrolls (j/k).
func (h helpView) Render(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	lines, colW := h.lines()
	cols := max(1, width/max(colW, 1))
	rows := max(height-1, 1)
	perCol := max((len(lines)+cols-1)/cols, 1)
	hint := "  (esc or ? to close)"
	if perCol > rows {
		perCol = rows
		hint = "  (j/k scroll · esc or ? to close)"
	}
	maxScroll := max(len(lines)-perCol*cols, 0)
	scroll := max(0, min(h.scroll, maxScroll))
	lines = lines[scroll:]
	columns := make([]string, 0, cols)
	for c := 0; c < cols && c*perCol < len(lines); c++ {
		col := lines[c*perCol : min((c+1)*perCol, len(lines))]
		columns = append(columns, fit(strings.Join(col, "\n"), min(colW, width), perCol))
	}
	title := h.styles.PaneFocus.Render("▌ Keys") + h.styles.Muted.Render(hint)
	return fit(title+"\n"+joinColumns("", columns...), width, height)
}
