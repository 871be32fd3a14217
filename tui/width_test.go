package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/reducer"
)

// widthMethods are the terminal's two ways of counting cells: per
// codepoint (the renderer's default) and by grapheme cluster (mode 2027).
var widthMethods = map[string]ansi.Method{"wcwidth": ansi.WcWidth, "grapheme": ansi.GraphemeWidth}

// underWidth runs f with the width model set to method, restoring the
// default after.
func underWidth(t *testing.T, method ansi.Method, f func()) {
	t.Helper()
	setCellMethod(method)
	defer setCellMethod(ansi.WcWidth)
	f()
}

// wideTextLog is a conversation of emoji with skin tones and joiners, CJK,
// combining marks and emoji presentation selectors.
func wideTextLog(t *testing.T) *reducer.Log {
	family := "👩\u200d👩\u200d👧\u200d👦"
	return fixtureLog(t,
		evMessage("w1", "user", strings.Repeat("👍🏽", 30)+" thumbs up"),
		evMessage("w2", "agent", strings.Repeat(family+" ", 20)+"family"),
		evMessage("w3", "user", "漢字とかなの混じった文章、全角の句読点。"+strings.Repeat("中文测试", 10)),
		evMessage("w4", "agent", "combining: e\u0301te\u0301 cafe\u0301 n\u0303 a\u0308\u0301 "+strings.Repeat("Z\u0335\u0321\u0358 ", 10)),
		evMessage("w5", "agent", "⚠️ ❤️ ✈️ ☀️ presentation selectors ⚠️ ❤️ ✈️ ☀️ "+strings.Repeat("🏳\ufe0f\u200d🌈 ", 12)),
	)
}

// TestWideTextUnderBothWidthModels draws emoji, CJK and combining marks
// under each width model, as the terminal draws them: every line is
// exactly the screen's width, the pane divider stays in its column on
// every row, and the screens are kept as goldens.
func TestWideTextUnderBothWidthModels(t *testing.T) {
	for name, method := range widthMethods {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(fmt.Sprintf("%s_%dx%d", name, size[0], size[1]), func(t *testing.T) {
				underWidth(t, method, func() {
					m := newModel(Options{Log: wideTextLog(t), Title: "wide 👩\u200d👩\u200d👧\u200d👦 漢字"}, size[0], size[1])
					m, _ = press(t, m, "j")
					out := screen(m)
					buf := drawCells(out, size[0]+10, size[1], method)
					for y, line := range strings.Split(out, "\n") {
						if got := method.StringWidth(line); got != size[0] {
							t.Fatalf("row %d is %d cells under %s, want %d: %q", y, got, name, size[0], line)
						}
						if c := buf.CellAt(size[0], y); c != nil && c.Content != " " && c.Content != "" {
							t.Fatalf("row %d spills past column %d under %s: %q", y, size[0], name, c.Content)
						}
					}
					if !m.layout().compact {
						l := m.layout()
						divider := l.list.w
						for y := l.list.y; y < l.list.y+l.list.h; y++ {
							if c := buf.CellAt(divider, y); c == nil || c.Content != m.styles.Glyphs.VRule {
								t.Fatalf("row %d: the divider is not at column %d under %s", y, divider, name)
							}
						}
					}
					golden.RequireEqual(t, out)
				})
			})
		}
	}
}

// TestWrapNeverSplitsACluster: the inspector wraps a message of joined
// emoji, CJK and combining marks without cutting a cluster in two, under
// both width models.
func TestWrapNeverSplitsACluster(t *testing.T) {
	family := "👩\u200d👩\u200d👧\u200d👦"
	for name, method := range widthMethods {
		underWidth(t, method, func() {
			log := fixtureLog(t, evMessage("w1", "agent", strings.Repeat(family+"e\u0301漢", 60)))
			m := newModel(Options{Log: log}, 37, 24)
			m, _ = press(t, m, "enter")
			out := screen(m)
			assertScreenShape(t, out, 37, 24)
			for _, line := range strings.Split(out, "\n") {
				if strings.Count(line, "👩") != 2*strings.Count(line, family) {
					t.Fatalf("%s: a family is cut: %q", name, line)
				}
				if strings.HasPrefix(strings.TrimSpace(line), "\u0301") {
					t.Fatalf("%s: a combining mark starts a line: %q", name, line)
				}
			}
			if !strings.Contains(out, family) {
				t.Fatalf("%s: no family on the screen:\n%s", name, out)
			}
		})
	}
}
