package conversation

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/tui/internal/tuitest"
)

// searchFor types a search and keeps it, its commands run to the end.
func searchFor(t *testing.T, m *Conversation, q string) *Conversation {
	t.Helper()
	m, _ = press(t, m, "/")
	m = finishSearch(t, typeText(t, m, q))
	m, _ = press(t, m, "enter")
	return m
}

// screenRowOf is the screen line of the list that shows event i.
func screenRowOf(t *testing.T, m *Conversation, i int) string {
	t.Helper()
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, fmt.Sprintf(" #%d ", i+1)) {
			return l
		}
	}
	t.Fatalf("no row shows #%d:\n%s", i+1, screen(m))
	return ""
}

// TestSearchMarksAMatchInDetails: a row the search matched only in its
// raw JSON (the action's command, not its summary) carries the mark, and
// the list's title and the help explain it; a row whose summary holds
// the query does not.
func TestSearchMarksAMatchInDetails(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.ErrorLog(t)}, 200, 60)
	m = searchFor(t, m, "missing")
	if row := screenRowOf(t, m, 5); !strings.Contains(row, detailMark+" Show a file that does not exist") {
		t.Errorf("the row matched in details is not marked: %q", row)
	}
	if row := screenRowOf(t, m, 6); strings.Contains(row, detailMark+" error") {
		t.Errorf("a row matched in its summary is marked: %q", row)
	}
	if title := strings.Split(screen(m), "\n")[2]; !strings.Contains(title, detailMark+" matched in details (enter)") {
		t.Errorf("the title does not explain the mark: %q", title)
	}
	m, _ = press(t, m, "?")
	help := screen(m)
	m, _ = press(t, m, "pgdown")
	if help += screen(m); !strings.Contains(help, detailMark+"        search matched in details") {
		t.Errorf("the help does not explain the mark:\n%s", help)
	}
	m, _ = press(t, m, "esc")
	// Without a search, no mark.
	m, _ = press(t, m, "/", "enter")
	m = finishSearch(t, m)
	if row := screenRowOf(t, m, 5); strings.Contains(row, detailMark) {
		t.Errorf("the mark outlives the search: %q", row)
	}
}

// TestInspectorHighlightsAndWalksMatches: the inspector opened on an
// event the search matched highlights the query in its lines and says
// which match is current; n and N move between the matches inside it,
// then on to the next or previous matching event, which opens on its
// first (going back: last) match.
func TestInspectorHighlightsAndWalksMatches(t *testing.T) {
	t.Parallel()
	m := colourModel(Options{Log: tuitest.ErrorLog(t)}, colorprofile.TrueColor, 120, 40)
	m = searchFor(t, m, "missing")
	m.moveTo(5)
	m, _ = press(t, m, "enter")
	title := func() string { return strings.Split(screen(m), "\n")[2] }
	if !strings.Contains(title(), "match 1/2") {
		t.Fatalf("the inspector's title: %q", title())
	}
	hl := matchStyle(m.styles).Render("missing")
	if n := strings.Count(screen(m), hl); n != 2 {
		t.Errorf("the inspector highlights %d matches, want 2:\n%s", n, screen(m))
	}
	m, _ = press(t, m, "n")
	if m.cursor != 5 || !strings.Contains(title(), "match 2/2") {
		t.Errorf("n inside the event: cursor #%d, title %q", m.cursor+1, title())
	}
	m, _ = press(t, m, "n")
	if m.cursor != 6 || !strings.Contains(title(), "▌ Inspect #7") || !strings.Contains(title(), "match 1/") {
		t.Errorf("n past the event's last match: cursor #%d, title %q", m.cursor+1, title())
	}
	m, _ = press(t, m, "N")
	if m.cursor != 5 || !strings.Contains(title(), "match 2/2") {
		t.Errorf("N before the event's first match: cursor #%d, title %q", m.cursor+1, title())
	}
	m, _ = press(t, m, "N")
	if m.cursor != 5 || !strings.Contains(title(), "match 1/2") {
		t.Errorf("N inside the event: cursor #%d, title %q", m.cursor+1, title())
	}
}

// longOutputLog is a terminal run whose output holds "needle" on two
// lines far down, neither in a row's summary.
func longOutputLog(t *testing.T) *Conversation {
	t.Helper()
	var out []string
	for k := 1; k <= 120; k++ {
		line := fmt.Sprintf("line %d", k)
		if k == 80 || k == 110 {
			line += " needle here"
		}
		out = append(out, line)
	}
	text := strings.Join(out, `\n`)
	log := tuitest.FixtureLog(t,
		`{"id":"a1","timestamp":"2026-01-27T03:56:24","source":"agent","thought":[],"action":{"kind":"TerminalAction","command":"cat haystack.txt"},"tool_name":"terminal","tool_call_id":"t1","kind":"ActionEvent"}`,
		`{"id":"o1","timestamp":"2026-01-27T03:56:25","source":"environment","kind":"ObservationEvent","tool_name":"terminal","tool_call_id":"t1","action_id":"a1","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"`+text+`"}],"command":"cat haystack.txt","exit_code":0}}`,
	)
	return newModel(Options{Log: log}, 80, 24)
}

// TestInspectorScrollsToTheMatch: the inspector opens scrolled to its
// event's first match when it lies below the first screen, and n scrolls
// to the next.
func TestInspectorScrollsToTheMatch(t *testing.T) {
	t.Parallel()
	m := longOutputLog(t)
	m = searchFor(t, m, "needle")
	if m.cursor != 0 {
		m.moveTo(0)
	}
	m, _ = press(t, m, "enter")
	// Scrolled, the title's window of lines no longer starts at the first.
	title := regexp.MustCompile(`▌ Inspect #1 .* (\d+)-\d+/\d+`).FindStringSubmatch(screen(m))
	if !strings.Contains(screen(m), "line 80 needle here") || title == nil || title[1] == "1" {
		t.Fatalf("the inspector is not scrolled to the match:\n%s", screen(m))
	}
	m, _ = press(t, m, "n")
	if !strings.Contains(screen(m), "line 110 needle here") || !strings.Contains(screen(m), "match 2/2") {
		t.Fatalf("n does not scroll to the next match:\n%s", screen(m))
	}
}

// TestGoldenSearchInspector is the inspector on an event the search
// matched only in its details, at both sizes.
func TestGoldenSearchInspector(t *testing.T) {
	t.Parallel()
	for _, src := range tuitest.Sources {
		for _, size := range tuitest.GoldenSizes {
			t.Run(fmt.Sprintf("%s%dx%d", src.Prefix, size[0], size[1]), func(t *testing.T) {
				m := newModel(Options{Log: tuitest.ErrorLogOn(t, src.Load), Title: "hello world, then errors", Source: "replay ./errors"}, size[0], size[1])
				m = searchFor(t, m, "missing")
				m.moveTo(5)
				m, _ = press(t, m, "enter", "n")
				out := screen(m)
				tuitest.AssertScreenShape(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}
