package compareview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/compare"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// compareGoldenSizes are the sizes the compare screen is drawn at: the
// smallest supported terminal (sides stacked) and a wide one (side by
// side).
var compareGoldenSizes = [][2]int{{80, 24}, {200, 50}}

// TestGoldenCompare draws the compare screen of a fork and its parent:
// as it opens (on the first difference), after moving back into the
// shared prefix, and with a row's two steps opened.
func TestGoldenCompare(t *testing.T) {
	scenarios := []struct {
		name string
		keys []string
	}{
		{"compare_open", nil},
		{"compare_shared", []string{"k", "k", "k"}},
		{"compare_next_diff", []string{"]", "]", "]"}},
		{"compare_detail", []string{"]", "enter"}},
		{"compare_help", []string{"?"}},
	}
	for _, sc := range scenarios {
		for _, size := range compareGoldenSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				c := compareFixture(t, size[0], size[1])
				pressCompare(c, sc.keys...)
				out := c.View()
				tuitest.AssertScreenShape(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}

// The screen opens on the first difference, which follows the fork
// point: the last shared row is the fork's forked_from event.
func TestCompareOpensAtTheForkPoint(t *testing.T) {
	c := compareFixture(t, 120, 40)
	dirs := tuitest.ForkPair(t)
	if c.Cmp.SharedUntilID != tuitest.ForkPoint(t, dirs[1]) {
		t.Fatalf("shared until %q, fork point %q", c.Cmp.SharedUntilID, tuitest.ForkPoint(t, dirs[1]))
	}
	if c.Cursor != c.Cmp.FirstDiff || c.Cursor <= 0 {
		t.Fatalf("cursor %d, first difference %d", c.Cursor, c.Cmp.FirstDiff)
	}
	if !c.Cmp.Rows[c.Cursor-1].Shared {
		t.Errorf("the row before the first difference is not shared")
	}
}

// Both panes show their side as of the cursor's row: moving the cursor
// changes the event each side is at, and on a row where one side has a
// gap that side stays at its last step.
//
// It reads the side the screen draws for a row (sideAtCursor): the state
// each side is at, whole, is more than its panes print.
func TestCompareTimeTravelsBothSides(t *testing.T) {
	c := compareFixture(t, 200, 50)
	pressCompare(c, "g")
	a0, b0 := c.sideAtCursor(0), c.sideAtCursor(1)
	if a0.event != b0.event || a0.event < 0 {
		t.Fatalf("at the first (shared) row the sides are at %d and %d", a0.event, b0.event)
	}
	// A row only in B: A stays where its last step was.
	only := -1
	for i, r := range c.Cmp.Rows {
		if r.Op == compare.OnlyB && i > 0 && c.Cmp.Rows[i-1].A >= 0 {
			only = i
			break
		}
	}
	if only < 0 {
		t.Fatal("the fixture has no row only in B after a step of A")
	}
	c.moveTo(only)
	a, b := c.sideAtCursor(0), c.sideAtCursor(1)
	if want := c.Cmp.StepsA[c.Cmp.Rows[only-1].A].Event; a.event != want {
		t.Errorf("A at %d on a gap, want its last step's event %d", a.event, want)
	}
	if want := c.Cmp.StepsB[c.Cmp.Rows[only].B].Event; b.event != want {
		t.Errorf("B at %d, want %d", b.event, want)
	}
	if b.state.Applied != c.RunB.Log.At(b.event).Applied {
		t.Errorf("B's state is not the state at its event")
	}
	pressCompare(c, "G")
	end := c.sideAtCursor(0)
	if !end.ended || end.state.Status != model.StatusFinished {
		t.Errorf("at the last row A is %q (ended %v)", end.state.Status, end.ended)
	}
}

// ] and [ move between the rows that differ, and say so at the ends.
func TestCompareNextPreviousDifference(t *testing.T) {
	c := compareFixture(t, 200, 50)
	pressCompare(c, "g", "]")
	if c.Cursor != c.Cmp.FirstDiff {
		t.Fatalf("] from the top went to %d, first difference %d", c.Cursor, c.Cmp.FirstDiff)
	}
	pressCompare(c, "]")
	second := c.Cursor
	if second <= c.Cmp.FirstDiff || c.Cmp.Rows[second].Op == compare.Same {
		t.Fatalf("second ] at %d (%v)", second, c.Cmp.Rows[second].Op)
	}
	pressCompare(c, "[")
	if c.Cursor != c.Cmp.FirstDiff {
		t.Fatalf("[ went to %d", c.Cursor)
	}
	pressCompare(c, "[")
	if c.Cursor != c.Cmp.FirstDiff || !strings.Contains(c.View(), "no difference before") {
		t.Errorf("[ before the first difference: cursor %d, footer %q", c.Cursor, lastLine(c.View()))
	}
}

// lastLine is the last line of a view: its footer.
func lastLine(view string) string { return view[strings.LastIndex(view, "\n")+1:] }

// moveTo moves the cursor to row with the keys: g, then j.
func moveTo(c *Compare, row int) {
	pressCompare(c, "g")
	for c.Cursor < row {
		pressCompare(c, "j")
	}
}

// enter opens both steps of the row with their arguments diffed; esc
// closes them, and esc again leaves the screen.
func TestCompareDetailDiffsBothSteps(t *testing.T) {
	c := compareFixture(t, 200, 50)
	// A changed row of two actions.
	row := -1
	for i, r := range c.Cmp.Rows {
		if r.Op == compare.Changed && c.Cmp.StepsA[r.A].Kind == compare.Action {
			row = i
			break
		}
	}
	if row < 0 {
		t.Fatal("no changed action row in the fixture")
	}
	moveTo(c, row)
	list := c.View()
	pressCompare(c, "enter")
	text := c.View()
	for _, want := range []string{"A  step", "B  step", "Arguments", "--- A", "+++ B", "Output"} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, text)
		}
	}
	pressCompare(c, "esc")
	if c.View() != list {
		t.Fatalf("esc did not close the detail:\n%s", c.View())
	}
	if cmd := c.Update(tuitest.KeyMsg("esc")); cmd == nil {
		t.Fatal("esc on the screen does not go back")
	} else if _, ok := cmd().(tui.PopMsg); !ok {
		t.Fatal("esc on the screen is not Back")
	}
}

// A side that keeps streaming is aligned again as its events arrive: the
// comparison follows it.
func TestCompareFollowsALiveSide(t *testing.T) {
	dirs := tuitest.ForkPair(t)
	full := tuitest.ForkPairLog(t, dirs[1])
	feed := make(chan model.Batch, 1)
	c := NewCompare(CompareOptions{
		A:       CompareSide{Title: "parent", Log: tuitest.ForkPairLog(t, dirs[0]), Ended: true},
		B:       CompareSide{Title: "fork", Log: reducer.NewLog(nil, 0), Feed: feed, Live: true},
		NoColor: true,
	})
	c.SetSize(200, 40)
	alignNow(c)
	if c.Cmp.OnlyA != len(c.Cmp.StepsA) || len(c.Cmp.StepsB) != 0 {
		t.Fatalf("with B empty: %+v", c.Cmp.Counts)
	}
	// B has taken no step yet: that is not a divergence.
	if !strings.Contains(c.View(), "no divergence so far") {
		t.Errorf("a side that has not started reads as diverged:\n%s", c.View())
	}
	var evs []model.Event
	for i := range full.Len() {
		evs = append(evs, full.Event(i))
	}
	half := len(evs) / 2
	for _, part := range [][]model.Event{evs[:half], evs[half:]} {
		feed <- model.Batch{Events: part}
		c.Update(c.WaitFeed(1)())
		finishAlignment(c)
	}
	close(feed)
	c.Update(c.WaitFeed(1)())
	finishAlignment(c)
	if c.WaitFeed(1) != nil || c.Cmp.SharedUntilID != tuitest.ForkPoint(t, dirs[1]) || len(c.Cmp.StepsB) == 0 {
		t.Fatalf("after the stream: still waits on B %v, shared until %q, %d steps of B", c.WaitFeed(1) != nil, c.Cmp.SharedUntilID, len(c.Cmp.StepsB))
	}
}

// finishAlignment hands c the result of the alignment its last batch
// started (the command itself also waits on the feed, which the test
// feeds by hand), and runs any alignment asked for meanwhile.
func finishAlignment(c *Compare) {
	cmd := c.Update(comparedMsg{Addr: c.Addr(), rows: newCompareRows(compare.Compare(c.runA, c.RunB))})
	for cmd != nil {
		cmd = c.Update(cmd())
	}
}
