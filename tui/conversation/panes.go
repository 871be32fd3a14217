package conversation

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"

	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// Pane is the contract of every pane of the conversation view (header,
// banners, event list, inspector, kind picker, help, side panes, summary
// strip, scrubber, footer). A pane is built for a frame from the derived
// state and the view settings it draws, never from the whole view: what
// it is given is all it can show. SetSize gives it its rectangle, View
// draws exactly that many cells, and ShortHelp names the keys it answers
// while it has focus (none for the panes that never do), which the
// footer's help bar shows.
type Pane interface {
	SetSize(width, height int)
	View() string
	ShortHelp() []key.Binding
}

// box is a pane's rectangle, set by SetSize.
type box struct{ width, height int }

// SetSize implements Pane.
func (b *box) SetSize(width, height int) { b.width, b.height = width, height }

// noKeys is the ShortHelp of a pane that never has focus.
type noKeys struct{}

// ShortHelp implements Pane: no keys.
func (noKeys) ShortHelp() []key.Binding { return nil }

// draw sizes a pane to width×height and draws it.
func draw(p Pane, width, height int) string {
	p.SetSize(width, height)
	return p.View()
}

// paneFrame draws a titled pane of lines: a title rule, then the lines from
// scroll on, exactly w×h. Panes with more lines than room say so in the
// title ("3-9/20"), so nothing is silently cut.
type paneFrame struct {
	box
	cells text.Cells
	// km is the key map as it applies now, pane the side pane framed:
	// its keys are what the pane answers while it has focus.
	km      *tui.KeyMap
	pane    pane
	title   string
	focused bool
	lines   []string
	scroll  int
	// fromBottom counts scroll up from the end, so a growing pane (the
	// timeline) shows its newest lines until the user scrolls back.
	fromBottom bool
	styles     *theme.Styles
}

// ShortHelp implements Pane.
func (p *paneFrame) ShortHelp() []key.Binding {
	if p.km == nil {
		return nil
	}
	return sidePaneKeys(*p.km, p.pane)
}

// View implements Pane.
func (p *paneFrame) View() string {
	width, height := p.width, p.height
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
	head += p.styles.Subtle.Render(strings.Repeat(p.styles.Glyphs.HRule, max(width-p.cells.Width(head), 0)))
	out := make([]string, 0, height)
	out = append(out, head)
	end := min(scroll+body, len(p.lines))
	if scroll < end {
		out = append(out, p.lines[scroll:end]...)
	}
	return p.cells.Block(strings.Join(out, "\n"), width, height)
}

// clampScroll keeps a scroll offset inside [0, n-h].
func clampScroll(scroll, n, h int) int {
	return max(0, min(scroll, n-h))
}

// hangingIndent is where the rows of a wrapped line start: under the
// value of a "label     value" line (the metrics), else two cells past
// the line's own indent (a task's notes under its title).
func hangingIndent(cells text.Cells, plain string) int {
	lead := len(plain) - len(strings.TrimLeft(plain, " "))
	if k := strings.Index(plain[lead:], "   "); k > 0 && k < 12 {
		v := lead + k
		for v < len(plain) && plain[v] == ' ' {
			v++
		}
		return cells.Width(plain[:v])
	}
	return lead + 2
}

// nestedIndent puts a wrapped line's rows two cells past its own indent:
// a long JSON string stays inside its level.
func nestedIndent(plain string) int {
	return len(plain) - len(strings.TrimLeft(plain, " ")) + 2
}

// wrapPaneLines wraps the lines of a side pane to width cells, at spaces
// where it can, so a pane shows whole task notes and model names instead
// of cutting them. Rows after the first are indented two cells past the
// line's own indent, so a wrapped line reads as one. A style open at the
// end of a row is closed there and opened again on the next, so it never
// spills into the next column of the screen.
//
// A value and its unit or label ("write 107k", "69 calls") are glued by
// glue's non-breaking spaces: a row breaks between them, never inside one,
// and the glue is drawn as a plain space.
func wrapPaneLines(cells text.Cells, lines []string, width int) []string {
	out := cells.WrapRows(lines, width, func(plain string) int { return hangingIndent(cells, plain) })
	for i, row := range out {
		if strings.Contains(row, nbsp) {
			out[i] = strings.ReplaceAll(row, nbsp, " ")
		}
	}
	return out
}

// nbsp glues the words of a side pane's figure (glue).
const nbsp = "\u00a0"

// glue joins words that a side pane's row must not split: a figure and
// its label or unit.
func glue(words ...string) string { return strings.Join(words, nbsp) }
