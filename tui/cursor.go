package tui

import (
	"sort"

	"ohwatch/reducer"
)

// shows reports whether the list shows event i: the filter lets its kind
// through, or it is the cursor (a jump to a hidden event still shows it).
func (m *Conversation) shows(i int) bool {
	if i == m.cursor {
		return true
	}
	ev := m.log.Event(i)
	return m.filter.shows(shortKind(&ev)) && m.onShownBranch(i)
}

// nextShown returns the first shown event after i.
func (m *Conversation) nextShown(i int) (int, bool) {
	n := m.log.Len()
	for j := i + 1; j < n; j++ {
		if m.shows(j) {
			return j, true
		}
	}
	return i, false
}

// prevShown returns the last shown event before i.
func (m *Conversation) prevShown(i int) (int, bool) {
	for j := min(i, m.log.Len()) - 1; j >= 0; j-- {
		if m.shows(j) {
			return j, true
		}
	}
	return i, false
}

// stepped returns the event n shown rows away from the cursor (negative:
// up), stopping at either end.
func (m *Conversation) stepped(n int) int { return m.stepFrom(m.cursor, n) }

// stepFrom returns the event n shown rows away from event i.
func (m *Conversation) stepFrom(i, n int) int {
	for ; n > 0; n-- {
		j, ok := m.nextShown(i)
		if !ok {
			break
		}
		i = j
	}
	for ; n < 0; n++ {
		j, ok := m.prevShown(i)
		if !ok {
			break
		}
		i = j
	}
	return i
}

// moveTo puts the cursor on event i. Reaching the newest event of a source
// that still records resumes following it; leaving it pins the cursor.
func (m *Conversation) moveTo(i int) {
	n := m.log.Len()
	if n == 0 {
		m.cursor = -1
		return
	}
	i = max(0, min(i, n-1))
	following := m.canFollow() && i == n-1
	if m.follow && !following {
		m.pinnedLen = n
	}
	m.follow = following
	m.cursor = i
	m.fixTop()
	return
}

// canFollow reports whether the source still records, or a recording is
// still loading, so the cursor can follow the newest event: G during a
// long replay's load goes to its end, not to where the load was then.
func (m *Conversation) canFollow() bool {
	return (m.opts.Live || m.loading()) && !m.feedDone
}

// loading reports whether a recording is still being read from its feed.
func (m *Conversation) loading() bool {
	return !m.opts.Live && m.opts.Feed != nil && m.progress != nil && !m.feedDone
}

// newSincePin is the number of events recorded since the cursor was pinned.
func (m *Conversation) newSincePin() int {
	if m.follow || !m.opts.Live {
		// A replay's events are not "new": they were recorded before.
		return 0
	}
	return max(0, m.log.Len()-m.pinnedLen)
}

// fixTop scrolls the list window so the cursor's row is inside it: to the
// top when the cursor went above it, to the bottom when it went below.
func (m *Conversation) fixTop() {
	h := m.layout().list.h - 1 // the list's first line is its title
	if m.cursor < 0 || h <= 0 {
		m.top = 0
		return
	}
	if m.cursor <= m.top {
		m.top = m.cursor
		m.fillWindow(h)
		return
	}
	rows := 0
	for i := m.top; i < m.log.Len() && rows < h; i++ {
		if !m.shows(i) {
			continue
		}
		if i == m.cursor {
			m.fillWindow(h)
			return
		}
		rows++
	}
	// The cursor is below the window: put it on the last row.
	top := m.cursor
	for rows = 1; rows < h; rows++ {
		j, ok := m.prevShown(top)
		if !ok {
			break
		}
		top = j
	}
	m.top = top
}

// fillWindow moves the window up when the rows from top to the end of the
// log do not fill its h rows, so a window that grew (a resize, a filter
// that shows fewer events) shows events above instead of blank lines. The
// cursor stays inside: the window only gains rows above it.
func (m *Conversation) fillWindow(h int) {
	rows := 0
	for i := max(m.top, 0); i < m.log.Len() && rows < h; i++ {
		if m.shows(i) {
			rows++
		}
	}
	for ; rows < h; rows++ {
		j, ok := m.prevShown(m.top)
		if !ok {
			return
		}
		m.top = j
	}
}

// visibleRows returns the event indices of the list window's rows.
func (m *Conversation) visibleRows(h int) []int {
	rows := make([]int, 0, h)
	for i := max(m.top, 0); i < m.log.Len() && len(rows) < h; i++ {
		if m.shows(i) {
			rows = append(rows, i)
		}
	}
	return rows
}

// nextIn returns the first index in sorted marks after the cursor
// (forward) or before it (backward).
func nextIn(marks []int, cursor int, forward bool) (int, bool) {
	if forward {
		k := sort.SearchInts(marks, cursor+1)
		if k < len(marks) {
			return marks[k], true
		}
		return 0, false
	}
	k := sort.SearchInts(marks, cursor) - 1
	if k >= 0 {
		return marks[k], true
	}
	return 0, false
}

// recordingEnded reports whether the conversation is a recording read to
// its end: nothing more can arrive, so its last status is final.
func (m *Conversation) recordingEnded() bool {
	return !m.opts.Live && (m.opts.Feed == nil || m.feedDone)
}

// verdict is the verdict on st, the state at the cursor: the recording's
// final one when the cursor is on the last event of an ended recording.
func (m *Conversation) verdict(st reducer.State) reducer.Verdict {
	return st.Verdict(m.recordingEnded() && m.cursor == m.log.Len()-1)
}
