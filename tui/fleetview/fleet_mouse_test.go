package fleetview

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/model"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// listedFleet is a fleet table of n listed conversations, "task 00" the
// most recently active, so that they sort by idle in their order.
func listedFleet(t *testing.T, w, h, n int, opts FleetOptions) *Fleet {
	t.Helper()
	f := newFleetScreen(t, w, h, opts)
	var ups []model.FleetUpdate
	for i := range n {
		ups = append(ups, metaUp(fleetRef("cloud", fmt.Sprintf("c%02d", i)), model.ConversationMeta{
			Title: fmt.Sprintf("task %02d", i), Status: model.StatusRunning,
			UpdatedAt: fleetNow.Add(-time.Duration(i) * time.Minute)}))
	}
	feedFleet(f, ups)
	return f
}

// wheel turns the mouse wheel one notch at x, y.
func wheel(d *tuitest.Driver, b tea.MouseButton, x, y int) {
	d.Send(tea.MouseWheelMsg{X: x, Y: y, Button: b})
}

// click clicks the left button at x, y.
func click(d *tuitest.Driver, x, y int) {
	d.Send(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
}

// TestFleetMouseWheelScrolls: at 80×24 a wheel notch moves the cursor
// three rows, and the table scrolls to keep it in sight, as j does.
func TestFleetMouseWheelScrolls(t *testing.T) {
	t.Parallel()
	d := drive(t, listedFleet(t, 80, 24, 60, FleetOptions{}), 80, 24)
	if got := selectedTitle(d); got != "task 00" {
		t.Fatalf("the table starts on %q, not task 00:\n%s", got, d.Screen())
	}
	for range 10 {
		wheel(d, tea.MouseWheelDown, 10, 5)
	}
	d.Shows("▶  task 30").Hides("task 00")
	wheel(d, tea.MouseWheelUp, 10, 5)
	if got := selectedTitle(d); got != "task 27" {
		t.Fatalf("a notch up: on %q, want task 27", got)
	}
	for range 40 {
		wheel(d, tea.MouseWheelDown, 10, 5)
	}
	if got := selectedTitle(d); got != "task 59" {
		t.Fatalf("the wheel went past the last row: on %q", got)
	}
	// The help takes the wheel from the table.
	d.Press("?")
	wheel(d, tea.MouseWheelUp, 10, 5)
	d.Press("esc")
	if got := selectedTitle(d); got != "task 59" {
		t.Fatalf("the wheel moved the rows under the help: on %q", got)
	}
}

// TestFleetMouseClickSelectsThenOpens: a click selects the row under it; a
// click on the selected row (the second of a double click) opens it.
func TestFleetMouseClickSelectsThenOpens(t *testing.T) {
	t.Parallel()
	var asked model.ConversationRef
	d := drive(t, listedFleet(t, 80, 24, 60, FleetOptions{Open: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
		asked = ref
		return conversation.Options{Title: "opened"}, nil
	}}), 80, 24)
	// Line 0 is the heading, 1 the column names: the first row is on
	// line 2 (one group, no group heading).
	click(d, 20, 7)
	if got := selectedTitle(d); got != "task 05" || asked.ID != "" {
		t.Fatalf("a click on line 7 selected %q (opened %q)\n%s", got, asked.ID, d.Screen())
	}
	click(d, 20, 7)
	if asked.ID != "c05" {
		t.Fatalf("a click on the selected row opened %q, not c05", asked.ID)
	}
	// Scrolled down, a click names the row on the screen, not its index.
	d.Press("G")
	want := rowTitle(string([]rune(d.Row(3))[3:]))
	click(d, 20, 3)
	if got := selectedTitle(d); got != want {
		t.Fatalf("scrolled: the click on line 3 selected %q, want %q", got, want)
	}
	// A click on the heading or the footer does nothing.
	d.Press("g")
	click(d, 20, 0)
	click(d, 20, 23)
	if got := selectedTitle(d); got != "task 00" {
		t.Fatalf("a click off the rows moved the cursor to %q", got)
	}
}

// cellOf is the cell at which sub starts in line (an arrow before it is
// one cell of three bytes).
func cellOf(line, sub string) int {
	return ansi.StringWidth(line[:strings.Index(line, sub)])
}

// TestFleetMouseClickSorts: a click on a column's name sorts by it, and
// again reverses the order; at 80 and 200 columns alike.
func TestFleetMouseClickSorts(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 200} {
		d := drive(t, listedFleet(t, w, 24, 5, FleetOptions{}), w, 24)
		x := cellOf(d.Row(1), "TITLE")
		click(d, x+1, 1)
		d.Shows("TITLE↑")
		if rows, _ := tableRows(d); rows[0] != "task 00" {
			t.Fatalf("%d: a click on TITLE: %s", w, shownTitles(d))
		}
		click(d, x, 1)
		d.Shows("TITLE↓")
		if rows, _ := tableRows(d); rows[0] != "task 04" {
			t.Fatalf("%d: a second click did not reverse: %s", w, shownTitles(d))
		}
		x = cellOf(d.Row(1), "STATUS")
		click(d, x+len("STATUS")-1, 1)
		d.Shows("STATUS↑").Hides("TITLE↓")
		// The gap between two names is no column.
		click(d, x-1, 1)
		d.Shows("STATUS↑")
	}
}
