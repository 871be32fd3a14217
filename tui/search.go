package tui

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/reducer"
)

// searchState is the last search: its query, the matching event indices
// (sorted), and whether it is still running.
type searchState struct {
	query   string
	matches []int
	running bool
	gen     int
}

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

// searchCmd scans every event logged so far. Smart case: a query with no
// capital letter matches any case.
func searchCmd(log *reducer.Log, query string, gen int) tea.Cmd {
	return func() tea.Msg {
		n := log.Len()
		fold := strings.ToLower(query) == query
		needle := []byte(query)
		var matches []int
		for i := 0; i < n; i++ {
			ev := log.Event(i)
			if matchText([]byte(ev.Summary), needle, fold) || matchText(ev.Raw, needle, fold) {
				matches = append(matches, i)
			}
		}
		return searchDoneMsg{gen: gen, query: query, matches: matches, scanned: n}
	}
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

// searchDone stores a search's matches and moves to the first match after
// the cursor (or the first one).
func (m Model) searchDone(msg searchDoneMsg) (tea.Model, tea.Cmd) {
	if msg.gen != m.search.gen {
		return m, nil
	}
	m.search.running = false
	m.search.matches = msg.matches
	if len(msg.matches) == 0 {
		return m.setFlash("no match for “" + model.SanitizeLine(msg.query) + "”")
	}
	i, ok := nextIn(msg.matches, m.cursor-1, true)
	if !ok {
		i = msg.matches[0]
	}
	return m.moveTo(i), nil
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
