package conversation

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
	ev := m.Log.Event(i)
	return m.filter.shows(shortKind(&ev)) && m.onShownBranch(i) && m.narrow.keeps(i)
}

// nextShown returns the first shown event after i. It asks the log's index
// of kinds for the next event the filter lets through, so a filter that
// shows few events in a long log costs a few binary searches, not a scan.
func (m *Conversation) nextShown(i int) (int, bool) {
	j, ok := m.seekShown(i, true)
	if c := m.cursor; c > i && (!ok || c < j) && c < m.Log.Len() {
		return c, true
	}
	if !ok {
		return i, false
	}
	return j, true
}

// prevShown returns the last shown event before i.
func (m *Conversation) prevShown(i int) (int, bool) {
	j, ok := m.seekShown(min(i, m.Log.Len()), false)
	if c := m.cursor; c >= 0 && c < i && (!ok || c > j) {
		return c, true
	}
	if !ok {
		return i, false
	}
	return j, true
}

// seekShown returns the nearest event after i (forward) or before it whose
// kind the filter lets through and that lies on the branch shown. Off the
// branch it jumps to the branch's next (previous) span: a path's spans
// are in file order.
func (m *Conversation) seekShown(i int, forward bool) (int, bool) {
	if m.narrow.active() {
		return m.seekNarrowed(i, forward)
	}
	set := m.filter.groups()
	path, linear := m.shownPath()
	for {
		var j int
		var ok bool
		if forward {
			j, ok = m.Log.NextInGroups(i, set)
		} else {
			j, ok = m.Log.PrevInGroups(i, set)
		}
		if !ok || linear || path.Contains(j) {
			return j, ok
		}
		i = -1
		if forward {
			for _, s := range path {
				if s.From > j {
					i = s.From - 1
					break
				}
			}
		} else {
			for k := len(path) - 1; k >= 0; k-- {
				if s := path[k]; s.To < j {
					i = s.To + 1
					break
				}
			}
		}
		if i < 0 {
			return 0, false
		}
	}
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
	n := m.Log.Len()
	if n == 0 {
		m.cursor = -1
		return
	}
	i = max(0, min(i, n-1))
	m.startAt = "" // moved: the view no longer waits to open elsewhere
	following := m.canFollow() && i == n-1
	if m.follow && !following {
		m.pinnedLen = n
	}
	m.follow = following
	m.cursor = i
	m.fixTop()
}

// canFollow reports whether the source still records, or a recording is
// still loading, so the cursor can follow the newest event: G during a
// long replay's load goes to its end, not to where the load was then.
func (m *Conversation) canFollow() bool {
	return (m.Opts.Live || m.loading()) && !m.feedDone
}

// loading reports whether a recording is still being read from its feed.
func (m *Conversation) loading() bool {
	return !m.Opts.Live && m.Opts.Feed != nil && m.progress != nil && !m.feedDone
}

// newSincePin is the number of events recorded since the cursor was pinned.
func (m *Conversation) newSincePin() int {
	if m.follow || !m.Opts.Live {
		// A replay's events are not "new": they were recorded before.
		return 0
	}
	return max(0, m.Log.Len()-m.pinnedLen)
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
	for i := range m.rowsFrom(m.top) {
		if rows == h {
			break
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
	for range m.rowsFrom(max(m.top, 0)) {
		if rows == h {
			break
		}
		rows++
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
	for i := range m.rowsFrom(max(m.top, 0)) {
		if len(rows) == h {
			break
		}
		rows = append(rows, i)
	}
	return rows
}

// rowsFrom yields the shown events from event i on, in order.
func (m *Conversation) rowsFrom(i int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		if i >= m.Log.Len() {
			return
		}
		if m.shows(i) && !yield(i) {
			return
		}
		for {
			j, ok := m.nextShown(i)
			if !ok || !yield(j) {
				return
			}
			i = j
		}
	}
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
	return !m.Opts.Live && (m.Opts.Feed == nil || m.feedDone)
}

// verdict is the verdict on st, the state at the cursor: the recording's
// final one when the cursor is on the last event of an ended recording.
func (m *Conversation) verdict(st reducer.State) reducer.Verdict {
	return st.Verdict(m.recordingEnded() && m.cursor == m.Log.Len()-1)
}

// seekStart puts the cursor on the event the view opens at
// (Options.StartAt) once the log holds it, and then forgets it.
func (m *Conversation) seekStart() {
	if m.startAt == "" {
		return
	}
	if i, ok := m.Log.IndexOf(m.startAt); ok {
		m.travel(i)
	}
}
