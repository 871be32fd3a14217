package text

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wordwrap wraps s to limit cells between words, leaving a word wider
// than the limit whole.
func (c Cells) Wordwrap(s string, limit int, breakpoints string) string {
	return c.method.Wordwrap(s, limit, breakpoints)
}

// sgrSeq matches one SGR (colour and attribute) sequence.
var sgrSeq = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// WrapRows wraps styled lines to width cells, at spaces where it can;
// indentOf says where the rows after a line's first start, from its plain
// text. A style open at the end of a row is closed there and opened again
// on the next, so it never spills into the next column of the screen.
func (c Cells) WrapRows(lines []string, width int, indentOf func(plain string) int) []string {
	if width <= 0 {
		return lines
	}
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		if c.Width(line) <= width {
			out = append(out, line)
			continue
		}
		indent := min(indentOf(ansi.Strip(line)), width/2)
		var rows []string
		for _, row := range strings.Split(c.method.Wrap(line, width-indent, " "), "\n") {
			if c.Width(strings.TrimLeft(row, " ")) > width-indent {
				// Wrap can leave a row long at a break it keeps whole.
				row = c.method.Hardwrap(strings.TrimLeft(row, " "), width-indent, true)
			}
			rows = append(rows, strings.Split(row, "\n")...)
		}
		open := ""
		for k, row := range rows {
			// The style open before this row's own sequences.
			reopen := open
			for _, seq := range sgrSeq.FindAllString(row, -1) {
				if seq == "\x1b[m" || seq == "\x1b[0m" {
					open = ""
				} else {
					open += seq
				}
			}
			if k > 0 {
				pad := indent
				if c.Width(strings.TrimLeft(row, " "))+pad > width {
					pad = 0 // a cluster wider than the room: no indent
				}
				row = strings.Repeat(" ", pad) + reopen + strings.TrimLeft(row, " ")
			}
			if open != "" {
				row += "\x1b[m"
			}
			out = append(out, row)
		}
	}
	return out
}

// WrapLines wraps lines to width between words, so prose reads whole: a
// word is cut only when it is wider than width. Rows after a line's first
// keep its indent, and a style open at a cut goes on in the next row.
func (c Cells) WrapLines(lines []string, width int) []string {
	if width <= 0 {
		return nil
	}
	return c.WrapRows(lines, width, ownIndent)
}

// ownIndent puts a wrapped line's rows under its first: at its own indent.
func ownIndent(plain string) int {
	return len(plain) - len(strings.TrimLeft(plain, " "))
}
