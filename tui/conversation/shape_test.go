package conversation

import (
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// TestResizeAnySize draws every scenario at sizes from tiny to huge: the
// screen always has the exact size and never panics.
func TestResizeAnySize(t *testing.T) {
	t.Parallel()
	sizes := [][2]int{{1, 1}, {20, 5}, {40, 10}, {79, 23}, {80, 24}, {100, 30}, {109, 40}, {110, 30}, {200, 60}, {300, 100}}
	for _, sc := range goldenScenarios() {
		m := sc.build(t, 160, 48)
		for _, size := range sizes {
			next, _ := send(m, tuitest.WindowSize(size[0], size[1]))
			tuitest.AssertScreenShape(t, screen(next), size[0], size[1])
			// The inspector and help also fit.
			for _, keys := range [][]string{{"enter"}, {"enter", "r"}, {"enter", "d"}, {"?"}, {"f"}, {"tab"}} {
				k, _ := press(t, next, keys...)
				tuitest.AssertScreenShape(t, screen(k), size[0], size[1])
			}
		}
	}
}
