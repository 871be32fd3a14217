package tui

import (
	"strconv"
	"strings"

	"ohwatch/theme"
)

// paneFrame draws a titled pane of lines: a title rule, then the lines from
// scroll on, exactly w×h. Panes with more lines than room say so in the
// title ("3-9/20"), so nothing is silently cut.
type paneFrame struct {
	title   string
	focused bool
	lines   []string
	scroll  int
	// fromBottom counts scroll up from the end, so a growing pane (the
	// timeline) shows its newest lines until the user scrolls back.
	fromBottom bool
	styles     theme.Styles
}

// Render implements the pane contract: exactly width×height cells.
func (p paneFrame) Render(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	body := height - 1
	scroll := clampScroll(p.scroll, len(p.lines), body)
	if p.fromBottom {
		scroll = clampScroll(len(p.lines)-body-p.scroll, len(p.lines), body)
	}
	title := p.title
	if len(p.lines) > body && body > 0 {
		title += " " + strconv.Itoa(scroll+1) + "-" + strconv.Itoa(min(scroll+body, len(p.lines))) +
			"/" + strconv.Itoa(len(p.lines))
	}
	st := p.styles.PaneTitle
	mark := p.styles.Glyphs.HRule
	if p.focused {
		st = p.styles.PaneFocus
		mark = "▌"
	}
	head := st.Render(mark + " " + title + " ")
	head += p.styles.Subtle.Render(strings.Repeat(p.styles.Glyphs.HRule, max(width-textWidth(head), 0)))
	out := make([]string, 0, height)
	out = append(out, head)
	end := min(scroll+body, len(p.lines))
	if scroll < end {
		out = append(out, p.lines[scroll:end]...)
	}
	return fit(strings.Join(out, "\n"), width, height)
}

// clampScroll keeps a scroll offset inside [0, n-h].
func clampScroll(scroll, n, h int) int {
	return max(0, min(scroll, n-h))
}
