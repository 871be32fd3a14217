package text

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Cells is a width model: per codepoint (wcwidth, the renderer's default:
// 👍🏽 takes 4 cells) or by grapheme cluster (2 cells), which a terminal
// uses once it reports Unicode core mode 2027. The layout must measure as
// the renderer and the terminal draw, or a line of emoji pushes a pane
// divider out of place. The zero value is wcwidth, as the renderer starts.
type Cells struct{ method ansi.Method }

// Graphemes is the width model of a terminal that clusters graphemes.
func Graphemes() Cells { return Cells{ansi.GraphemeWidth} }

// Of is the width model that counts cells as method does.
func Of(method ansi.Method) Cells { return Cells{method} }

// Width is the number of cells s takes; escape sequences take none.
func (c Cells) Width(s string) int { return c.method.StringWidth(s) }

// Truncate cuts s to w cells, ending it with tail. ansi's Truncate returns
// s whole when its grapheme width fits, even under wcwidth where it does
// not; padding s past w makes it do the cut, which falls inside s, so the
// padding never shows.
func (c Cells) Truncate(s string, w int, tail string) string {
	if c.Width(s) <= w {
		return s
	}
	return c.method.Truncate(s+strings.Repeat(" ", w+1), w, tail)
}

// TruncateLeft drops the first n cells of s, starting it with prefix.
func (c Cells) TruncateLeft(s string, n int, prefix string) string {
	return c.method.TruncateLeft(s, n, prefix)
}

// Fit makes one line exactly w cells wide: cut with an ellipsis, or
// padded with spaces.
func (c Cells) Fit(line string, w int) string {
	lw := c.Width(line)
	if lw > w {
		line = c.Truncate(line, w, "…")
		lw = c.Width(line)
	}
	if lw < w {
		line += strings.Repeat(" ", w-lw)
	}
	return line
}

// Block makes text exactly w cells wide and h lines tall: long lines are
// cut with an ellipsis (never wrapped into the next pane), short ones
// padded, missing lines added blank.
func (c Cells) Block(text string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := strings.Split(text, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	var b strings.Builder
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		b.WriteString(c.Fit(line, w))
	}
	return b.String()
}

// Pad makes s exactly w cells, aligned left or right (a number column).
func (c Cells) Pad(s string, w int, right bool) string {
	if right {
		s = c.Truncate(s, w, "…")
		return strings.Repeat(" ", max(w-c.Width(s), 0)) + s
	}
	return c.Fit(s, w)
}
