package conversation

// setFilter changes the kind filter and places the list anew (reanchor).
func (m *Conversation) setFilter(f kindFilter) {
	h := m.layout().list.h - 1 // the list's first line is its title
	var rows []int
	if h > 0 {
		rows = m.visibleRows(h)
	}
	m.filter = f
	m.reanchor(m.cursor, rows)
}

// reanchor places the list after the kind filter changed (cursor and rows
// are the cursor and the list's rows before the change). A cursor whose kind the filter now hides moves to the
// nearest event it shows (while following a live conversation the cursor
// stays on the newest event, which always shows). The cursor keeps the
// screen row it had where it can, and the window never leaves rows empty
// while shown events lie above it: the old scroll position means nothing
// once other rows show.
func (m *Conversation) reanchor(cursor int, rows []int) {
	h := m.layout().list.h - 1 // the list's first line is its title
	if m.cursor < 0 || h <= 0 {
		m.top = 0
		return
	}
	if ev := m.Log.Event(m.cursor); !m.follow && (!m.filter.shows(shortKind(&ev)) || !m.narrow.keeps(m.cursor)) {
		if i, ok := m.nearestShown(m.cursor); ok {
			m.moveTo(i)
			m.afterMove(cursor)
		}
	}
	row := 0
	for _, i := range rows {
		if i == cursor {
			break
		}
		row++
	}
	m.top = m.stepFrom(m.cursor, -min(row, h-1))
	// Fill the window: with fewer shown rows below than it holds, it
	// starts earlier.
	if missing := h - len(m.visibleRows(h)); missing > 0 {
		m.top = m.stepFrom(m.top, -missing)
	}
}

// nearestShown returns the event nearest to i that the filter shows,
// the earlier one on a tie.
func (m *Conversation) nearestShown(i int) (int, bool) {
	prev, okPrev := m.seekShown(i, false)
	next, okNext := m.seekShown(i, true)
	switch {
	case okPrev && (!okNext || i-prev <= next-i):
		return prev, true
	case okNext:
		return next, true
	}
	return i, false
}
