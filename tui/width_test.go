package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/reducer"
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
			log := fixtureLog(t, evMessage("w1", "agent", strings.Repeat(family+"e\u0301漢", 60)))
			m := measuredAs(newModel(Options{Log: log}, 37, 24), method)
			m, _ = press(t, m, "enter")
			out := screen(m)
			assertShapeUnder(t, text.Of(method), out, 37, 24)
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
					assertShapeUnder(t, cells, out, 80, 24)
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

// unicodeCore is the terminal's report that it clusters graphemes.
var unicodeCore = tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet}

// TestModeReportReachesEveryScreen: the terminal's report of mode 2027
// reaches every screen through the router (the one on top, one beneath
// it, one pushed after the report), and the views that had drawn per
// codepoint draw again exactly as views measured by cluster from the
// start: the list's rows and the inspector's raw JSON are not kept.
func TestModeReportReachesEveryScreen(t *testing.T) {
	t.Parallel()
	// stack is a router with a view at its root and one pushed over it,
	// open on the raw JSON of a message of thumbs with skin tones (four
	// cells each per codepoint, two as a cluster), unfolded; each view is
	// drawn once, and the terminal reports mode 2027 first or last.
	stack := func(reportFirst bool) (r *Model, root, top *Conversation) {
		root = newModel(Options{Log: wideTextLog(t)}, 80, 24)
		r = NewModel(root)
		r.Update(windowSize(80, 24))
		if reportFirst {
			r.Update(unicodeCore)
		}
		screen(root)
		top = newModel(Options{Log: wideTextLog(t)}, 80, 24)
		r.Update(Push(top)())
		// The message's text is the eighth line of its raw JSON, folded.
		top, _ = press(t, top, "enter", "r", "j", "j", "j", "j", "j", "j", "j", "enter")
		assertShapeUnder(t, top.cells, screen(top), 80, 24)
		if !reportFirst {
			r.Update(unicodeCore)
		}
		return r, root, top
	}
	r, root, top := stack(false)
	later := newModel(Options{Log: wideTextLog(t)}, 80, 24)
	r.Update(Push(later)())
	for name, m := range map[string]*Conversation{"beneath": root, "on top": top, "pushed after": later} {
		if m.cells != text.Graphemes() {
			t.Errorf("the view %s measures per codepoint after the report", name)
		}
	}
	_, wantRoot, wantTop := stack(true)
	if got, want := screen(root), screen(wantRoot); got != want {
		t.Errorf("the view beneath kept rows it measured per codepoint:\n%s\nwant\n%s", got, want)
	}
	if got, want := screen(top), screen(wantTop); got != want {
		t.Errorf("the inspector kept raw rows it wrapped per codepoint:\n%s\nwant\n%s", got, want)
	}

	fleetRoot := NewFleet(FleetOptions{Now: func() time.Time { return fleetNow }})
	NewModel(fleetRoot).Update(unicodeCore)
	if fleetRoot.cells != text.Graphemes() {
		t.Error("the fleet table measures per codepoint after the report")
	}
	// A terminal that does not know the mode keeps the renderer's count.
	plain := newModel(Options{Log: wideTextLog(t)}, 80, 24)
	NewModel(plain).Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeNotRecognized})
	if plain.cells != (text.Cells{}) {
		t.Error("a terminal that does not know mode 2027 is measured by cluster")
	}
}
