package conversation

import (
	"strings"
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// findLog is the recording the find models' tests move through: 200
// generated events, timed, with terminal and file_editor actions.
func findLog(t *testing.T) Options {
	return Options{Log: tuitest.Generated(t, 200, 1)}
}

// TestDriverSearchNextAndPreviousMatch: / finds the matches, marks them on
// the scrubber and counts them in the list's title; n and N move the
// cursor from match to match, and N before the first wraps to the last,
// saying so.
func TestDriverSearchNextAndPreviousMatch(t *testing.T) {
	t.Parallel()
	d := drive(t, findLog(t), 120, 30)
	if strings.Contains(d.Row(-2), "┃") {
		t.Fatalf("the scrubber marks matches before any search: %q", d.Row(-2))
	}
	d.Press("/").Type("read").Press("enter")
	d.Shows("“read”: 99 matches", "match 1/99", "#1/200")
	if !strings.Contains(d.Row(-2), "┃") {
		t.Fatalf("the scrubber does not mark the matches: %q", d.Row(-2))
	}
	d.Press("n").Shows("match 2/99", "#4/200")
	d.Press("n").Shows("match 3/99", "#5/200")
	d.Press("N").Shows("match 2/99", "#4/200")
	d.Press("N", "N").Shows("#197/200", "search wrapped to the last match (N)")
	d.Press("N").Shows("match 98/99")
	d.Press("n", "n").Shows("#1/200", "search wrapped to the first match (n)")
	d.Press("esc").Shows("cleared the search for “read”").Hides("match 1/99", "99 matches")
	if strings.Contains(d.Row(-2), "┃") {
		t.Fatalf("esc left the matches marked: %q", d.Row(-2))
	}
}

// TestDriverNarrowFiltersRows: | keeps only the rows whose events have
// every term, the list's title saying so; an empty narrowing shows all
// rows again.
func TestDriverNarrowFiltersRows(t *testing.T) {
	t.Parallel()
	d := drive(t, findLog(t), 120, 30)
	d.Shows("Read main.go", "file_editor: Here's")
	d.Press("|").Type("tool:terminal").Press("enter")
	d.Shows("| tool:terminal", "Run the whole test suite", "terminal: exit 1").Hides("Read main.go", "file_editor: Here's")
	d.Press("|").Type(" failed").Press("enter")
	d.Shows("| tool:terminal failed", "terminal: exit 1").Hides("terminal: exit 0")
	d.Press("|", "ctrl+u", "enter")
	d.Hides("| tool:terminal").Shows("file_editor: Here's")
	d.Press("|").Type("exit:x").Press("enter").Shows("narrow: exit: takes a number")
}

// TestDriverJumpGoesToAnIndex: : takes an event number (or a time) and
// puts the cursor there; one past the end says which numbers there are.
func TestDriverJumpGoesToAnIndex(t *testing.T) {
	t.Parallel()
	d := drive(t, findLog(t), 120, 30)
	d.Press(":").Type("151").Press("enter")
	d.Shows("#151/200")
	if row := d.Row(-3); !strings.HasPrefix(row, "▶  #151") {
		t.Fatalf("the cursor's row is not #151's: %q", row)
	}
	d.Press(":").Type("#12").Press("enter").Shows("#12/200")
	d.Press(":").Type("+0:27").Press("enter").Shows("#15/200")
	d.Press(":").Type("999").Press("enter").Shows("no event 999 (1-200)", "#15/200")
}

// TestDriverPlaybackAdvances: space plays the recording from the cursor,
// one shown event per recorded gap (the noise the list hides is skipped);
// + doubles the speed; space again pauses, and the waits of the paused
// replay move nothing.
func TestDriverPlaybackAdvances(t *testing.T) {
	tuitest.InBubble(t, func(t *testing.T) {
		d := drive(t, findLog(t), 120, 30)
		d.Shows("#1/200")
		d.Press("space")
		if d.Pending() == 0 {
			t.Fatal("space waits for no step")
		}
		d.RunWaiting().Shows("#2/200")
		d.RunWaiting().Shows("#5/200")
		d.Press("+").Shows("2x")
		d.RunWaiting().Shows("#6/200")
		d.Press("space").RunWaiting().RunWaiting().Shows("#6/200")
	})
}
