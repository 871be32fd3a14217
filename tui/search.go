package tui

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/reducer"
)

// searchState is the last search: its query, the matching event indices
// (sorted), whether it is still running, and how many events of the log it
// has looked at. Events that arrive after the search started are searched
// as they come, so the matches always cover the whole log.
type searchState struct {
	query   string
	matches []int
	running bool
	gen     int
	scanned int
}

// inlineScanMax is the most events a frame searches itself when a search
// has fallen behind the log; a longer stretch is searched as a command.
const inlineScanMax = 4096

// label describes the search for the list title.
func (s searchState) label() string {
	switch {
	case s.running:
		return "searching “" + s.query + "”…"
	case s.query == "":
		return ""
	case len(s.matches) == 0:
		return "“" + s.query + "”: no match"
	}
	return "“" + s.query + "”: " + strconv.Itoa(len(s.matches)) + " matches"
}

// startSearch runs a search over every event's summary and raw JSON as a
// command, so even a million-event log never blocks a frame.
func (m Model) startSearch(query string) (tea.Model, tea.Cmd) {
	query = strings.TrimSpace(query)
	if query == "" {
		m.search = searchState{gen: m.search.gen + 1}
		return m, nil
	}
	m.search = searchState{query: query, running: true, gen: m.search.gen + 1}
	return m, searchCmd(m.log, query, m.search.gen)
}

// searchCmd scans every event logged so far.
func searchCmd(log *reducer.Log, query string, gen int) tea.Cmd {
	return searchFrom(log, query, gen, 0)
}

// searchFrom scans the events logged from index from on, as a command.
func searchFrom(log *reducer.Log, query string, gen, from int) tea.Cmd {
	return func() tea.Msg {
		n := log.Len()
		return searchDoneMsg{gen: gen, query: query, from: from, matches: scanEvents(log, query, from, n), scanned: n}
	}
}

// scanEvents returns the indices in [from, to) whose summary or raw JSON
// contains query. Smart case: a query with no capital letter matches any
// case.
func scanEvents(log *reducer.Log, query string, from, to int) []int {
	fold := strings.ToLower(query) == query
	needle := []byte(query)
	var matches []int
	for i := from; i < to; i++ {
		ev := log.Event(i)
		if matchText([]byte(ev.Summary), needle, fold) || matchText(ev.Raw, needle, fold) {
			matches = append(matches, i)
		}
	}
	return matches
}

// searchNew extends a finished search over the events logged since it
// last looked: a few (one batch) in this frame, a long stretch as a
// command.
func (m Model) searchNew() (Model, tea.Cmd) {
	s := &m.search
	n := m.log.Len()
	if s.query == "" || s.running || s.scanned >= n {
		return m, nil
	}
	if n-s.scanned > inlineScanMax {
		s.running = true
		return m, searchFrom(m.log, s.query, s.gen, s.scanned)
	}
	if more := scanEvents(m.log, s.query, s.scanned, n); len(more) > 0 {
		s.matches = append(slices.Clip(s.matches), more...)
	}
	s.scanned = n
	return m, nil
}

// matchText reports whether hay contains needle, ignoring ASCII case when
// fold is set (the needle is then lower case).
func matchText(hay, needle []byte, fold bool) bool {
	if !fold {
		return bytes.Contains(hay, needle)
	}
	if len(needle) == 0 {
		return true
	}
	first := needle[0]
	upper := byte(unicode.ToUpper(rune(first)))
	if first >= 0x80 {
		upper = first
	}
	for i := 0; i+len(needle) <= len(hay); {
		j := indexEither(hay[i:len(hay)-len(needle)+1], first, upper)
		if j < 0 {
			return false
		}
		i += j
		if equalFoldASCII(hay[i:i+len(needle)], needle) {
			return true
		}
		i++
	}
	return false
}

// indexEither returns the first index of a or b in s, -1 if neither.
func indexEither(s []byte, a, b byte) int {
	i := bytes.IndexByte(s, a)
	if a == b {
		return i
	}
	j := bytes.IndexByte(s, b)
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	}
	return min(i, j)
}

// equalFoldASCII compares s with the lower-case needle, folding ASCII case.
func equalFoldASCII(s, lower []byte) bool {
	for k := range lower {
		c := s[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[k] {
			return false
		}
	}
	return true
}

// searchDone stores a search's matches and, for a new search, moves to the
// first match after the cursor (or the first one). A search that fell
// behind the log while it ran goes on over the events that arrived.
func (m Model) searchDone(msg searchDoneMsg) (tea.Model, tea.Cmd) {
	if msg.gen != m.search.gen {
		return m, nil
	}
	m.search.running = false
	m.search.scanned = msg.scanned
	if msg.from > 0 {
		m.search.matches = append(slices.Clip(m.search.matches), msg.matches...)
		return m.searchNew()
	}
	m.search.matches = msg.matches
	m, more := m.searchNew()
	if len(m.search.matches) == 0 {
		m, flash := m.setFlash("no match for “" + model.SanitizeLine(msg.query) + "”")
		return m, tea.Batch(more, flash)
	}
	i, ok := nextIn(m.search.matches, m.cursor-1, true)
	if !ok {
		i = m.search.matches[0]
	}
	return m.moveTo(i), more
}

// nextMatch moves to the next (or previous) match, wrapping around.
func (m Model) nextMatch(forward bool) Model {
	ms := m.search.matches
	if len(ms) == 0 {
		return m
	}
	i, ok := nextIn(ms, m.cursor, forward)
	if !ok {
		i = ms[0]
		if !forward {
			i = ms[len(ms)-1]
		}
	}
	return m.moveTo(i)
}
