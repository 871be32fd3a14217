package tui

import (
	"strings"
	"testing"

	"ohwatch/tui/text"
)

// assertScreenShape checks that a screen is exactly w×h cells: no line
// wraps into the next, none is missing.
func assertScreenShape(t *testing.T, out string, w, h int) {
	t.Helper()
	assertShapeUnder(t, text.Cells{}, out, w, h)
}

// assertShapeUnder is assertScreenShape with the cells counted as cells
// count them.
func assertShapeUnder(t *testing.T, cells text.Cells, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("screen has %d lines, want %d", len(lines), h)
	}
	for k, l := range lines {
		if got := cells.Width(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", k, got, w, l)
		}
	}
}

// TestResizeAnySize draws every scenario at sizes from tiny to huge: the
// screen always has the exact size and never panics.
func TestResizeAnySize(t *testing.T) {
	t.Parallel()
	sizes := [][2]int{{1, 1}, {20, 5}, {40, 10}, {79, 23}, {80, 24}, {100, 30}, {109, 40}, {110, 30}, {200, 60}, {300, 100}}
	for _, sc := range goldenScenarios() {
		m := sc.build(t, 160, 48)
		for _, size := range sizes {
			next, _ := send(m, windowSize(size[0], size[1]))
			assertScreenShape(t, screen(next), size[0], size[1])
			// The inspector and help also fit.
			for _, keys := range [][]string{{"enter"}, {"enter", "r"}, {"enter", "d"}, {"?"}, {"f"}, {"tab"}} {
				k, _ := press(t, next, keys...)
				assertScreenShape(t, screen(k), size[0], size[1])
			}
		}
	}
}
