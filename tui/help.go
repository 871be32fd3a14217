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
}

// Render implements the pane contract: exactly width×height cells. Groups
// flow into as many columns as the width allows.
func (h helpView) Render(width, height int) string {
	s := h.styles
	var blocks [][]string
	keyW := 0
	for _, g := range h.keys.helpGroups() {
		for _, b := range g.bindings {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
	}
	colW := 0
	for _, g := range h.keys.helpGroups() {
		lines := []string{s.PaneFocus.Render(g.title)}
		for _, b := range g.bindings {
			hp := b.Help()
			line := s.Key.Render(fitLine(hp.Key, keyW)) + "  " + s.KeyDesc.Render(hp.Desc)
			colW = max(colW, keyW+2+ansi.StringWidth(hp.Desc))
			lines = append(lines, line)
		}
		blocks = append(blocks, append(lines, ""))
	}
	colW += 3
	cols := max(1, width/max(colW, 1))
	// Lay the groups out column by column, each column as tall as needed.
	perCol := (len(blocks) + cols - 1) / cols
	columns := make([]string, 0, cols)
	for c := 0; c < cols; c++ {
		var lines []string
		for k := c * perCol; k < min((c+1)*perCol, len(blocks)); k++ {
			lines = append(lines, blocks[k]...)
		}
		if len(lines) > 0 {
			columns = append(columns, strings.Join(lines, "\n"))
		}
	}
	tall := 0
	for _, c := range columns {
		tall = max(tall, strings.Count(c, "\n")+1)
	}
	for k := range columns {
		columns[k] = fit(columns[k], min(colW, width), tall)
	}
	title := s.PaneFocus.Render("▌ Keys") + s.Muted.Render("  (esc or ? to close)")
	return fit(title+"\n"+joinColumns("", columns...), width, height)
}
