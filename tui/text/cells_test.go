package text

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// models are the two width models a terminal may draw with.
var models = map[string]Cells{"wcwidth": {}, "grapheme": Graphemes()}

// TestCellsCountAsTheirTerminal: a thumb with a skin tone takes four
// cells per codepoint and two as a cluster; the zero value counts per
// codepoint, as the renderer starts.
func TestCellsCountAsTheirTerminal(t *testing.T) {
	t.Parallel()
	thumb := "👍🏽"
	if got := (Cells{}).Width(thumb); got != 4 {
		t.Errorf("wcwidth: %d cells, want 4", got)
	}
	if got := Graphemes().Width(thumb); got != 2 {
		t.Errorf("grapheme: %d cells, want 2", got)
	}
	if Of(ansi.GraphemeWidth) != Graphemes() || Of(ansi.WcWidth) != (Cells{}) {
		t.Error("Of does not name the models")
	}
}

// TestFitIsExactUnderEachModel: a line of emoji, CJK and styles is cut or
// padded to exactly w cells as its own model counts them, which under
// wcwidth needs the cut ansi's Truncate skips when the clusters fit.
func TestFitIsExactUnderEachModel(t *testing.T) {
	t.Parallel()
	line := "\x1b[1m" + strings.Repeat("👍🏽漢", 6) + "\x1b[m tail"
	for name, c := range models {
		for w := range 40 {
			if got := c.Width(c.Fit(line, w)); got != w {
				t.Errorf("%s: Fit to %d is %d cells", name, w, got)
			}
			if got := c.Width(c.Truncate(line, w, "…")); got > w {
				t.Errorf("%s: Truncate to %d is %d cells", name, w, got)
			}
			if got := c.Width(c.Pad("12", w, true)); w >= 2 && got != w {
				t.Errorf("%s: Pad right to %d is %d cells", name, w, got)
			}
		}
		block := c.Block(line+"\n"+line+"\nshort", 9, 4)
		rows := strings.Split(block, "\n")
		if len(rows) != 4 {
			t.Fatalf("%s: Block has %d rows, want 4", name, len(rows))
		}
		for _, r := range rows {
			if got := c.Width(r); got != 9 {
				t.Errorf("%s: a Block row is %d cells: %q", name, got, r)
			}
		}
	}
}

// TestWrapLinesKeepsClustersAndIndent: wrapped prose keeps each row
// within the width under its model, never starts a row inside a cluster,
// and puts the rows after the first at the line's own indent.
func TestWrapLinesKeepsClustersAndIndent(t *testing.T) {
	t.Parallel()
	family := "👩\u200d👩\u200d👧\u200d👦"
	line := "  " + strings.Repeat("word "+family+" ", 12)
	for name, c := range models {
		rows := c.WrapLines([]string{line}, 20)
		if len(rows) < 2 {
			t.Fatalf("%s: %d rows", name, len(rows))
		}
		for k, r := range rows {
			if got := c.Width(r); got > 20 {
				t.Errorf("%s: row %d is %d cells: %q", name, k, got, r)
			}
			if !strings.HasPrefix(r, "  ") || strings.HasPrefix(strings.TrimLeft(r, " "), "\u200d") {
				t.Errorf("%s: row %d lost its indent or starts inside a cluster: %q", name, k, r)
			}
		}
	}
}
