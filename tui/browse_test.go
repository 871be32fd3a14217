package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// browseRows is a root of conversations with every column varied, one of
// them from a server (no path) and one with a hostile title.
func browseRows() []BrowseRow {
	at := func(day, hour int) time.Time { return time.Date(2026, 1, day, hour, 0, 0, 0, time.UTC) }
	return []BrowseRow{
		{ID: "1a2b3c4d5e6f40718293a4b5c6d7e8f9", Title: "Fix the ledger cutoff bug", Status: "finished", Events: 1834, Cost: "$1.27", LastActivity: at(27, 9), Path: "/convs/1a2b"},
		{ID: "22222222222240008000000000000002", Title: "echo hello world", Status: "finished", Events: 5, Cost: "$0.0123", LastActivity: at(28, 14), Path: "/convs/2222"},
		{ID: "33333333333340008000000000000003", Title: "Refactor the HTTP handlers", Status: "running", Events: 412, Cost: "unknown", LastActivity: at(29, 8), Path: "/convs/3333"},
		{ID: "44444444444440008000000000000004", Title: "Plan the migration", Status: "error", Events: 96, Cost: "$0.41", LastActivity: at(20, 17), Path: "/convs/4444"},
		{ID: "55555555555540008000000000000005", Title: "safe\x1b[2J\x1b]52;c;ZXZpbA==\x07title", Status: "waiting_for_confirmation", Events: -1, Cost: "-", LastActivity: time.Time{}, Path: "/convs/5555"},
		{ID: "66666666666640008000000000000006", Title: "A conversation on the server", Status: "idle", Events: 40, Cost: "$3.02", LastActivity: at(25, 12)},
	}
}

// newBrowse builds a plain-text browser of the given size.
func newBrowse(rows []BrowseRow, w, h int) browser {
	b := newBrowser(BrowseOptions{Rows: rows, Where: "/convs", NoColor: true})
	next, _ := b.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(browser)
}

// browseKeys sends keys to the browser and returns it with the last
// command.
func browseKeys(t *testing.T, b browser, keys ...string) (browser, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		var next tea.Model
		next, cmd = b.Update(keyMsg(k))
		b = next.(browser)
	}
	return b, cmd
}

// titles lists the shown rows' titles in order.
func titles(b browser) []string {
	out := make([]string, len(b.shown))
	for k, i := range b.shown {
		out[k] = b.opts.Rows[i].Title
	}
	return out
}

// isQuit reports whether cmd quits the program.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestBrowseSortsByLastActivityAndCycles(t *testing.T) {
	b := newBrowse(browseRows(), 120, 30)
	cases := []struct {
		sort  string
		first []string
		last  string
	}{
		{"last activity", []string{"Refactor the HTTP handlers", "echo hello world", "Fix the ledger cutoff bug"}, "safe"},
		{"cost", []string{"A conversation on the server", "Fix the ledger cutoff bug", "Plan the migration", "echo hello world"}, ""},
		{"events", []string{"Fix the ledger cutoff bug", "Refactor the HTTP handlers", "Plan the migration"}, "safe"},
		{"status", []string{"Plan the migration", "echo hello world", "Fix the ledger cutoff bug", "A conversation on the server", "Refactor the HTTP handlers"}, "safe"},
		{"last activity", []string{"Refactor the HTTP handlers"}, ""},
	}
	for k, c := range cases {
		if k > 0 {
			b, _ = browseKeys(t, b, "s")
		}
		got := titles(b)
		for i, want := range c.first {
			if got[i] != want {
				t.Fatalf("sorted by %s: row %d is %q, want %q (all: %q)", c.sort, i, got[i], want, got)
			}
		}
		if c.last != "" && !strings.HasPrefix(got[len(got)-1], c.last) {
			t.Fatalf("sorted by %s: last row %q, want %q first (unknowns last)", c.sort, got[len(got)-1], c.last)
		}
		if !strings.Contains(b.render(), "sorted by "+c.sort) {
			t.Fatalf("heading does not say the order %q:\n%s", c.sort, b.render())
		}
	}
}

func TestBrowseMovesAndChoosesAPath(t *testing.T) {
	b := newBrowse(browseRows(), 120, 30)
	b, _ = browseKeys(t, b, "j", "j", "k", "j")
	if got := titles(b)[b.cursor]; got != "Fix the ledger cutoff bug" {
		t.Fatalf("cursor on %q", got)
	}
	b, cmd := browseKeys(t, b, "enter")
	if b.chosen != "/convs/1a2b" || !isQuit(cmd) {
		t.Fatalf("enter chose %q (quit %v), want the row's path", b.chosen, isQuit(cmd))
	}

	b = newBrowse(browseRows(), 120, 30)
	b, _ = browseKeys(t, b, "G")
	if b.cursor != len(b.shown)-1 {
		t.Fatalf("G put the cursor on %d of %d", b.cursor, len(b.shown))
	}
	b, _ = browseKeys(t, b, "j", "g")
	if b.cursor != 0 {
		t.Fatalf("g put the cursor on %d", b.cursor)
	}
}

func TestBrowseChoosesTheIDWithoutAPath(t *testing.T) {
	b := newBrowse(browseRows(), 120, 30)
	b, _ = browseKeys(t, b, "/")
	b = typeBrowse(b, "server")
	b, _ = browseKeys(t, b, "enter")
	if strings.Contains(b.render(), "█") || !strings.Contains(b.render(), "enter choose") {
		t.Fatalf("a server row (no path) should offer choose, with the filter line closed:\n%s", b.render())
	}
	b, cmd := browseKeys(t, b, "enter")
	if b.chosen != "66666666666640008000000000000006" || !isQuit(cmd) {
		t.Fatalf("enter chose %q, want the id of the row without a path", b.chosen)
	}
}

// typeBrowse types text into the browser's filter line.
func typeBrowse(b browser, text string) browser {
	for _, r := range text {
		next, _ := b.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		b = next.(browser)
	}
	return b
}

func TestBrowseFilters(t *testing.T) {
	b := newBrowse(browseRows(), 120, 30)
	b, _ = browseKeys(t, b, "/")
	b = typeBrowse(b, "HTTP")
	if got := titles(b); len(got) != 1 || got[0] != "Refactor the HTTP handlers" {
		t.Fatalf("filter HTTP shows %q", got)
	}
	// Any case, and over the status and the id too.
	b, _ = browseKeys(t, b, "backspace", "backspace", "backspace", "backspace")
	b = typeBrowse(b, "finished")
	if got := titles(b); len(got) != 2 {
		t.Fatalf("filter by status shows %q", got)
	}
	b, _ = browseKeys(t, b, "esc")
	if b.filter != "" || b.filtering || len(b.shown) != len(b.opts.Rows) {
		t.Fatalf("esc in the filter line did not clear it: %q, %d rows", b.filter, len(b.shown))
	}
	b, _ = browseKeys(t, b, "/")
	b = typeBrowse(b, "44444444")
	b, cmd := browseKeys(t, b, "enter")
	if isQuit(cmd) || len(b.shown) != 1 || !strings.Contains(b.render(), "filter “44444444”") {
		t.Fatalf("enter should keep the filter and stay:\n%s", b.render())
	}
	// With a filter kept, esc clears it first; only then does it quit.
	b, cmd = browseKeys(t, b, "esc")
	if isQuit(cmd) || b.filter != "" {
		t.Fatalf("esc with a filter should clear it first")
	}
	if _, cmd = browseKeys(t, b, "esc"); !isQuit(cmd) {
		t.Fatalf("esc without a filter should quit")
	}
	b = typeBrowse(newBrowse(browseRows(), 120, 30), "/")
	b = typeBrowse(b, "nothing like this")
	if !strings.Contains(b.render(), "no conversation matches") {
		t.Fatalf("an empty result does not say so:\n%s", b.render())
	}
	if b, cmd = browseKeys(t, b, "enter", "enter"); b.chosen != "" || isQuit(cmd) {
		t.Fatalf("enter on an empty table chose %q", b.chosen)
	}
}

func TestBrowseQuitsWithoutChoosing(t *testing.T) {
	for _, k := range []string{"q", "esc", "ctrl+c"} {
		b := newBrowse(browseRows(), 120, 30)
		b, cmd := browseKeys(t, b, "j", k)
		// Ctrl-C is SIGINT in raw mode: an interrupt (exit 130).
		ended := isQuit(cmd)
		if k == "ctrl+c" {
			ended = cmd != nil && cmd() == tea.Interrupt()
		}
		if b.chosen != "" || !ended {
			t.Fatalf("%s: chose %q, ended %v", k, b.chosen, ended)
		}
	}
}

func TestBrowseScrollsAndSanitises(t *testing.T) {
	var rows []BrowseRow
	for i := 0; i < 50; i++ {
		rows = append(rows, BrowseRow{ID: fmt.Sprintf("%032x", i), Title: fmt.Sprintf("conversation %02d", i), Status: "idle",
			Events: i, Cost: "-", LastActivity: time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC), Path: fmt.Sprint("/c/", i)})
	}
	rows = append(rows, browseRows()...)
	b := newBrowse(rows, 80, 24)
	b, _ = browseKeys(t, b, "G")
	out := b.render()
	assertScreenShape(t, out, 80, 24)
	if !strings.Contains(out, "conversation 00") {
		t.Fatalf("the last row is not on the screen after G:\n%s", out)
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("a title drove the terminal: %q", out)
	}
	b, _ = browseKeys(t, b, "ctrl+u", "ctrl+u", "ctrl+u", "ctrl+u", "ctrl+u", "ctrl+u")
	if b.cursor != 0 || !strings.Contains(b.render(), "Refactor") {
		t.Fatalf("page up did not return to the top: cursor %d", b.cursor)
	}
}

func TestGoldenBrowse(t *testing.T) {
	b := newBrowse(browseRows(), 80, 24)
	b, _ = browseKeys(t, b, "j")
	out := b.render()
	assertScreenShape(t, out, 80, 24)
	golden.RequireEqual(t, out)
}

// TestBrowserStatusShowsTheVerdict checks that a wide browser words each
// status as `ls` and every other surface do, with its provenance, and a
// narrow one keeps the bare status.
func TestBrowserStatusShowsTheVerdict(t *testing.T) {
	rows := []BrowseRow{{ID: "a", Title: "echo", Status: "finished", Verdict: "finished (recorded, inferred)", Events: 5, Cost: "unknown", Path: "/c/a"}}
	if s := newBrowse(rows, 160, 10).render(); !strings.Contains(s, "finished (recorded, inferred)") {
		t.Errorf("the wide browser lacks the verdict:\n%s", s)
	}
	if s := newBrowse(rows, 80, 10).render(); strings.Contains(s, "(recorded") || !strings.Contains(s, "finished") {
		t.Errorf("the narrow browser:\n%s", s)
	}
}
