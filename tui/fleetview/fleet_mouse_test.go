package fleetview

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/fleet"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
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

func wheel(f *Fleet, b tea.MouseButton, x, y int) tea.Cmd {
	return f.Update(tea.MouseWheelMsg{X: x, Y: y, Button: b})
}

func click(f *Fleet, x, y int) tea.Cmd {
	return f.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
}

// TestFleetMouseWheelScrolls: at 80×24 a wheel notch moves the cursor
// three rows, and the table scrolls to keep it in sight, as j does.
func TestFleetMouseWheelScrolls(t *testing.T) {
	t.Parallel()
	f := listedFleet(t, 80, 24, 60, FleetOptions{})
	if f.cursor != 0 || !strings.Contains(f.View(), "task 00") {
		t.Fatalf("the table does not start on task 00:\n%s", f.View())
	}
	for range 10 {
		wheel(f, tea.MouseWheelDown, 10, 5)
	}
	v := f.View()
	if f.cursor != 30 || !strings.Contains(v, "▶  task 30") || strings.Contains(v, "task 00") {
		t.Fatalf("ten notches down: cursor %d\n%s", f.cursor, v)
	}
	wheel(f, tea.MouseWheelUp, 10, 5)
	if f.cursor != 27 {
		t.Fatalf("a notch up: cursor %d, want 27", f.cursor)
	}
	for range 40 {
		wheel(f, tea.MouseWheelDown, 10, 5)
	}
	if f.cursor != 59 || !strings.Contains(f.View(), "task 59") {
		t.Fatalf("the wheel went past the last row: %d", f.cursor)
	}
	// The help takes the wheel from the table.
	pressFleet(f, "?")
	wheel(f, tea.MouseWheelUp, 10, 5)
	if f.cursor != 59 {
		t.Fatal("the wheel moved the rows under the help")
	}
}

// TestFleetMouseClickSelectsThenOpens: a click selects the row under it; a
// click on the selected row (the second of a double click) opens it.
func TestFleetMouseClickSelectsThenOpens(t *testing.T) {
	t.Parallel()
	var asked model.ConversationRef
	f := listedFleet(t, 80, 24, 60, FleetOptions{Open: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
		asked = ref
		return conversation.Options{Title: "opened"}, nil
	}})
	// Line 0 is the heading, 1 the column names: the first row is on
	// line 2 (one group, no group heading).
	if cmd := click(f, 20, 7); cmd != nil || f.cursor != 5 || !strings.Contains(f.View(), "▶  task 05") {
		t.Fatalf("a click on line 7 selected row %d\n%s", f.cursor, f.View())
	}
	cmd := click(f, 20, 7)
	if cmd == nil || f.opening.ID != "c05" {
		t.Fatal("a click on the selected row did not open it")
	}
	if _, ok := f.Update(cmd())().(tui.PushMsg); !ok || asked.ID != "c05" {
		t.Fatalf("opened %v", asked)
	}
	// Scrolled down, a click names the row on the screen, not its index.
	pressFleet(f, "G")
	click(f, 20, 3)
	if want := f.top + 3 - 2; f.cursor != want || f.rows[f.cursor].Ref.ID != fmt.Sprintf("c%02d", want) {
		t.Fatalf("scrolled: the click on line 3 selected %d, want %d", f.cursor, want)
	}
	// A click on the heading or the footer does nothing.
	pressFleet(f, "g")
	at := f.cursor
	click(f, 20, 0)
	click(f, 20, 23)
	if f.cursor != at {
		t.Fatalf("a click off the rows moved the cursor to %d", f.cursor)
	}
}

// TestFleetMouseClickSorts: a click on a column's name sorts by it, and
// again reverses the order; at 80 and 200 columns alike.
func TestFleetMouseClickSorts(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 200} {
		f := listedFleet(t, w, 24, 5, FleetOptions{})
		names := strings.Split(f.View(), "\n")[1]
		x := strings.Index(names, "TITLE")
		click(f, x+1, 1)
		if f.query.Sort != fleet.ColTitle || f.query.Desc || !strings.Contains(f.View(), "TITLE↑") {
			t.Fatalf("%d: a click on TITLE sorts by %s", w, f.query.Sort.Name())
		}
		click(f, x, 1)
		if !f.query.Desc || f.rows[0].Title != "task 04" {
			t.Fatalf("%d: a second click did not reverse: %s", w, fleetTitles(f))
		}
		names = strings.Split(f.View(), "\n")[1]
		x = strings.Index(names, "STATUS")
		click(f, x+len("STATUS")-1, 1)
		if f.query.Sort != fleet.ColStatus || f.query.Desc {
			t.Fatalf("%d: a click on STATUS sorts by %s", w, f.query.Sort.Name())
		}
		// The gap between two names is no column.
		click(f, x-1, 1)
		if f.query.Sort != fleet.ColStatus {
			t.Fatalf("%d: a click between columns sorted by %s", w, f.query.Sort.Name())
		}
	}
}
