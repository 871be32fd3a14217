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

// groups returns the reference as one block of lines per group (its title,
// then a line per binding), and the width a column needs.
func (h helpView) groups() ([][]string, int) {
	s := h.styles
	keyW := 0
	for _, g := range h.keys.helpGroups() {
		for _, b := range g.bindings {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
	}
	colW := 0
	var out [][]string
	for _, g := range h.keys.helpGroups() {
		block := []string{s.PaneFocus.Render(g.title)}
		for _, b := range g.bindings {
			hp := b.Help()
			colW = max(colW, keyW+2+ansi.StringWidth(hp.Desc))
			block = append(block, s.Key.Render(fitLine(hp.Key, keyW))+"  "+s.KeyDesc.Render(hp.Desc))
		}
		out = append(out, block)
	}
	return out, colW + 3
}

// pack lays the groups out in columns at most height lines tall, a group
// kept whole in one column unless it alone is taller; groups in a column
// are separated by a blank line.
func pack(groups [][]string, height int) [][]string {
	var cols [][]string
	var cur []string
	for _, g := range groups {
		need := len(g)
		if len(cur) > 0 {
			need++ // the blank line before it
		}
		if len(cur) > 0 && len(cur)+need > height {
			cols, cur = append(cols, cur), nil
		}
		if len(cur) > 0 {
			cur = append(cur, "")
		}
		for _, line := range g {
			if len(cur) >= height {
				cols, cur = append(cols, cur), nil
			}
			cur = append(cur, line)
		}
	}
	if len(cur) > 0 {
		cols = append(cols, cur)
	}
	return cols
}

// layout returns the reference's columns for a width×rows area: as short
// as the columns that fit side by side allow, and no shorter than rows
// when everything fits, so the reference never scrolls when it need not.
func (h helpView) layout(width, rows int) ([][]string, int) {
	groups, colW := h.groups()
	fit := max(1, width/max(colW, 1))
	total := 0
	for _, g := range groups {
		total += len(g) + 1
	}
	height := max(rows, 1)
	if len(pack(groups, height)) > fit {
		// It does not fit: find the shortest columns that do, and scroll.
		for height = max(total/fit, 1); len(pack(groups, height)) > fit; height++ {
		}
	}
	return pack(groups, height), colW
}

// maxScroll is how far the reference scrolls in a width×height area.
func (h helpView) maxScroll(width, height int) int {
	cols, _ := h.layout(width, max(height-1, 1))
	tallest := 0
	for _, c := range cols {
		tallest = max(tallest, len(c))
	}
	return max(tallest-max(height-1, 1), 0)
}

// Render implements the pane contract: exactly width×height cells. The
// groups flow into as many columns as the width allows; what does not fit
// scrolls (j/k), every column together.
func (h helpView) Render(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	rows := max(height-1, 1)
	cols, colW := h.layout(width, rows)
	tallest := 0
	for _, c := range cols {
		tallest = max(tallest, len(c))
	}
	hint := "  (esc or ? to close)"
	if tallest > rows {
		hint = "  (j/k scroll · esc or ? to close)"
	}
	scroll := max(0, min(h.scroll, tallest-rows))
	blocks := make([]string, 0, len(cols))
	for _, c := range cols {
		blocks = append(blocks, fit(strings.Join(c, "\n"), min(colW, width), tallest))
	}
	all := strings.Split(joinColumns("", blocks...), "\n")
	all = all[scroll:min(scroll+rows, len(all))]
	title := h.styles.PaneFocus.Render("▌ Keys") + h.styles.Muted.Render(hint)
	return fit(title+"\n"+strings.Join(all, "\n"), width, height)
}
