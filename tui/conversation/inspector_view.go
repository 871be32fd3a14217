package conversation

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/tui"
	"ohwatch/tui/text"
)

// ShortHelp implements dialog.Dialog: the inspector's keys, as they
// apply now.
func (in *inspector) ShortHelp() []key.Binding { return inspectorKeys(in.env.keys) }

// inspectorKeys are the keys of the inspector.
func inspectorKeys(k tui.KeyMap) []key.Binding {
	return append(answerKeys(k), tui.Shortly(k.Back, "esc", "back"), scrollKey("event"),
		tui.Shortly(k.Raw, "r", "raw"), tui.Shortly(k.Diff, "d", "diff"), tui.Shortly(k.Fold, "enter", "fold"), tui.Shortly(k.Wrap, "w", "wrap"), tui.Shortly(k.Right, "←/→", "sideways"),
		tui.Shortly(k.Copy, "y", "copy"), tui.Shortly(k.Pager, "o", "pager"), tui.Shortly(k.NextError, "]", "error"))
}

// View implements dialog.Dialog: a title with the mode, then the lines of
// the event shown, exactly width×height cells.
func (in *inspector) View() string {
	width, height := in.width, in.height
	if width <= 0 || height <= 0 {
		return ""
	}
	s, cells, km := &in.env.styles, in.env.cells, &in.env.keys
	lines, nodes := in.lines(*s, cells, in.raw(), width)
	body := height - 1
	scroll := clampScroll(in.scroll, len(lines), body)
	modes := []string{"event", "raw JSON", "state diff"}
	tabs := make([]string, len(modes))
	for k, name := range modes {
		if inspectMode(k) == in.mode {
			tabs[k] = s.PaneFocus.Render("[" + name + "]")
		} else {
			tabs[k] = s.Muted.Render(" " + name + " ")
		}
	}
	pos := ""
	if len(lines) > body && body > 0 {
		pos = s.Muted.Render(" " + Itoa(scroll+1) + "-" + Itoa(min(scroll+body, len(lines))) + "/" + Itoa(len(lines)))
	}
	query := in.env.query
	hits := in.hitLines(lines, query, width)
	title := s.PaneFocus.Render("▌ Inspect "+tui.Ordinal(in.index)) + " " + strings.Join(tabs, "") + pos
	if h := in.hitLabel(hits); h != "" {
		title += s.Info.Render(h)
	}
	raw := in.mode == modeRaw && nodes != nil
	if raw {
		title += s.Muted.Render(in.rawLabel(cells, lines, width))
	}
	if in.env.zoomed {
		title += s.Muted.Render(" · zoomed (" + km.Zoom.Help().Key + ")")
	}
	out := []string{title}
	for k := scroll; k < min(scroll+body, len(lines)); k++ {
		line := lines[k]
		if _, hit := slices.BinarySearch(hits, k); hit {
			line = highlightLine(*s, query, line)
		}
		if raw && in.nowrap {
			line = sideways(cells, line, in.xoff, width-rawGutter)
		}
		if raw {
			// A gutter marks the selected line (the one enter/z folds),
			// visible without colours too.
			if k == in.line {
				line = s.Selected.Render(cells.Fit(s.Glyphs.Cursor+" "+ansi.Strip(line), width))
			} else {
				line = "  " + line
			}
		}
		out = append(out, line)
	}
	return cells.Block(strings.Join(out, "\n"), width, height)
}

// rawLabel says how the raw view treats long lines: wrapped, or whole
// and how far scrolled, and that some are longer than the screen.
func (in *inspector) rawLabel(cells text.Cells, lines []string, width int) string {
	if !in.nowrap {
		return " · wrapped"
	}
	longest := 0
	for _, l := range lines {
		longest = max(longest, cells.Width(l))
	}
	if longest <= width-rawGutter {
		return " · unwrapped"
	}
	return " · unwrapped, col " + Itoa(in.xoff+1) + "/" + Itoa(longest)
}

// sideways shows the w cells of line from column x on, marking with ‹ and
// › that it goes on to the left or right, so nothing is cut silently.
func sideways(cells text.Cells, line string, x, w int) string {
	total := cells.Width(line)
	if w <= 2 || (x == 0 && total <= w) {
		return line
	}
	left, right := "", ""
	if x > 0 {
		left = "‹"
	}
	if total-x > w {
		right = "›"
	}
	inner := w - cells.Width(left) - cells.Width(right)
	// ansi's Cut drops the left cut under wcwidth: cut right, then left.
	part := cells.TruncateLeft(cells.Truncate(line, x+inner, ""), x, "")
	if strings.Contains(part, "\x1b[") {
		part += "\x1b[m" // a style cut open ends before the marker
	}
	return left + part + right
}
