package conversation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
	"ohwatch/tui/text"
)

// widthMethods are the terminal's two ways of counting cells: per
// codepoint (the renderer's default) and by grapheme cluster (mode 2027).
var widthMethods = map[string]ansi.Method{"wcwidth": ansi.WcWidth, "grapheme": ansi.GraphemeWidth}

// measuredAs has m measure under method, as the router tells it once the
// terminal reports its model.
func measuredAs(m *Conversation, method ansi.Method) *Conversation {
	m.SetCells(text.Of(method))
	return m
}

// wideTextLog is a conversation of emoji with skin tones and joiners, CJK,
// combining marks and emoji presentation selectors.
func wideTextLog(t *testing.T) *reducer.Log {
	family := "👩\u200d👩\u200d👧\u200d👦"
	return tuitest.FixtureLog(t,
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
	t.Parallel()
	for name, method := range widthMethods {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(fmt.Sprintf("%s_%dx%d", name, size[0], size[1]), func(t *testing.T) {
				t.Parallel()
				func() {
					m := measuredAs(newModel(Options{Log: wideTextLog(t), Title: "wide 👩\u200d👩\u200d👧\u200d👦 漢字"}, size[0], size[1]), method)
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
				}()
			})
		}
	}
}

// TestWrapNeverSplitsACluster: the inspector wraps a message of joined
// emoji, CJK and combining marks without cutting a cluster in two, under
// both width models.
func TestWrapNeverSplitsACluster(t *testing.T) {
	t.Parallel()
	family := "👩\u200d👩\u200d👧\u200d👦"
	for name, method := range widthMethods {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			log := tuitest.FixtureLog(t, evMessage("w1", "agent", strings.Repeat(family+"e\u0301漢", 60)))
			m := measuredAs(newModel(Options{Log: log}, 37, 24), method)
			m, _ = press(t, m, "enter")
			out := screen(m)
			tuitest.AssertShapeUnder(t, text.Of(method), out, 37, 24)
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

// TestWidthModelsSideBySide: two views of the same conversation, one
// measuring per codepoint and one by cluster, drawn at the same time:
// each screen is exactly as wide as its own model counts, every drawing
// is the same as its view's first, and the two views differ, so neither
// measured under the other's model.
func TestWidthModelsSideBySide(t *testing.T) {
	t.Parallel()
	// Each view writes only its own string; both are read once the two
	// have ended.
	var byCodepoint, byCluster string
	drawn := map[ansi.Method]*string{ansi.WcWidth: &byCodepoint, ansi.GraphemeWidth: &byCluster}
	t.Run("views", func(t *testing.T) {
		for name, method := range widthMethods {
			first := drawn[method]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				cells := text.Of(method)
				for k := range 5 {
					m := measuredAs(newModel(Options{Log: wideTextLog(t)}, 80, 24), method)
					m, _ = press(t, m, "j", "enter")
					out := screen(m)
					tuitest.AssertShapeUnder(t, cells, out, 80, 24)
					if k == 0 {
						*first = out
					} else if out != *first {
						t.Fatalf("drawing %d differs from the first:\n%s\n---\n%s", k, out, *first)
					}
				}
			})
		}
	})
	if byCodepoint == "" || byCodepoint == byCluster {
		t.Fatal("the views under the two width models drew the same screen")
	}
}
