package tui

// reanchor places the list after the kind filter changed (before is the
// model as it was). A cursor whose kind the filter now hides moves to the
// nearest event it shows (while following a live conversation the cursor
// stays on the newest event, which always shows). The cursor keeps the
// screen row it had where it can, and the window never leaves rows empty
// while shown events lie above it: the old scroll position means nothing
// once other rows show.
func (m Model) reanchor(before Model) Model {
	h := m.layout().list.h - 1 // the list's first line is its title
	if m.cursor < 0 || h <= 0 {
		m.top = 0
		return m
	}
	if ev := m.log.Event(m.cursor); !m.follow && !m.filter.shows(shortKind(&ev)) {
		if i, ok := m.nearestShown(m.cursor); ok {
			m = m.moveTo(i).afterMove(before)
		}
	}
	row := 0
	for _, i := range before.visibleRows(h) {
		if i == before.cursor {
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
	return m
}

// nearestShown returns the event nearest to i that the filter shows,
// the earlier one on a tie.
func (m Model) nearestShown(i int) (int, bool) {
	n := m.log.Len()
	passes := func(j int) bool {
		ev := m.log.Event(j)
		return m.filter.shows(shortKind(&ev))
	}
	for d := 1; i-d >= 0 || i+d < n; d++ {
		if j := i - d; j >= 0 && passes(j) {
			return j, true
		}
		if j := i + d; j < n && passes(j) {
			return j, true
		}
	}
	return i, false
}
