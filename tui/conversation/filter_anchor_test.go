package conversation

import (
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// listRows is the number of event rows the list pane holds.
func listRows(m *Conversation) int { return m.layout().list.h - 1 }

// shownCount is how many events the filter shows.
func shownCount(m *Conversation) int {
	n := 0
	for i := 0; i < m.Log.Len(); i++ {
		ev := m.Log.Event(i)
		if m.filter.shows(shortKind(&ev)) {
			n++
		}
	}
	return n
}

// assertFilledAround fails unless the cursor's row is on the screen and
// the list leaves no row empty while the filter shows enough events.
func assertFilledAround(t *testing.T, m *Conversation, what string) {
	t.Helper()
	h := listRows(m)
	rows := m.visibleRows(h)
	found := false
	for _, i := range rows {
		found = found || i == m.cursor
	}
	if !found {
		t.Fatalf("%s: the cursor %d is off the screen (rows %v)", what, m.cursor, rows)
	}
	if want := min(h, shownCount(m)); len(rows) < want {
		t.Fatalf("%s: %d of %d rows used, %d events shown", what, len(rows), h, shownCount(m))
	}
}

func TestKindFilterReanchorsTheList(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 3000, 5)
	m := newModel(Options{Log: log}, 160, 48)
	m = jumpTo(t, m, "2900")
	// Show only user and agent messages: few, most of them far above. The
	// picker hands its filter over in a message, which the driver runs;
	// where the list went is read from the view's cursor and rows, the
	// very thing the test is about.
	d := tuitest.Drive(t, m, 160, 48)
	d.Press("f", "space") // Msg is the first kind
	ev := m.Log.Event(m.cursor)
	if shortKind(&ev) != kindMessage {
		t.Fatalf("the cursor stayed on a hidden %s", shortKind(&ev))
	}
	if d := m.cursor - 2899; d < -300 || d > 300 {
		t.Fatalf("the cursor moved to %d, far from 2899", m.cursor)
	}
	assertFilledAround(t, m, "only Msg")
	d.Press("esc")
	assertFilledAround(t, m, "picker closed")

	// A filter that keeps the cursor's event keeps its row on the screen.
	m = newModel(Options{Log: log}, 160, 48)
	m = jumpTo(t, m, "1500")
	m, _ = press(t, m, "j", "j", "j")
	row := func(m *Conversation) int {
		for k, i := range m.visibleRows(listRows(m)) {
			if i == m.cursor {
				return k
			}
		}
		return -1
	}
	before, at := row(m), m.cursor
	m, _ = press(t, m, "F")
	if m.cursor != at || row(m) != before {
		t.Fatalf("showing the noise moved the cursor from %d (row %d) to %d (row %d)", at, before, m.cursor, row(m))
	}
	assertFilledAround(t, m, "noise shown")

	// At the end of the log, a filter that shows a few events fills the
	// window from above rather than leaving it empty below.
	m = newModel(Options{Log: log}, 160, 48)
	tuitest.Drive(t, m, 160, 48).Press("G", "f", "j", "j", "j", "j", "space", "esc") // errors only
	assertFilledAround(t, m, "errors only, at the end")
}
