package tui

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"ohwatch/model"
	"ohwatch/reducer"
)

// The narrowing (|) is a text filter over the event list, with the kind
// filter: a row shows only when its kind is let through and its event
// has every term of the narrowing. A term is tool:NAME (the action's or
// observation's tool), failed (an error, a failed observation, a
// non-zero exit code), exit:N or exit:!0 (a terminal observation's exit
// code), or a word looked for in the event's JSON (smart case, as search).
// Search finds; the narrowing hides what does not match.

// narrowing is a parsed narrowing; nil narrows nothing.
type narrowing struct {
	query   string
	tool    string
	failed  bool
	exit    *int
	nonzero bool
	words   []*matcher
	// scanned events have been read; kept are those with every term.
	scanned int
	kept    []int
}

// parseNarrowing reads a narrowing; "" is none.
func parseNarrowing(q string) (*narrowing, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, nil
	}
	n := &narrowing{query: q}
	for _, term := range strings.Fields(q) {
		switch {
		case strings.HasPrefix(term, "tool:"):
			n.tool = strings.TrimPrefix(term, "tool:")
		case term == "failed":
			n.failed = true
		case term == "exit:!0":
			n.nonzero = true
		case strings.HasPrefix(term, "exit:"):
			code, err := strconv.Atoi(strings.TrimPrefix(term, "exit:"))
			if err != nil {
				return nil, errors.New("exit: takes a number, or !0 for any failure: " + term)
			}
			n.exit = &code
		default:
			n.words = append(n.words, newMatcher(term))
		}
	}
	return n, nil
}

// keeps reports whether event i of log has every term.
func (n *narrowing) keeps(log *reducer.Log, i int) bool {
	if n == nil {
		return true
	}
	kept := n.fill(log)
	_, found := slices.BinarySearch(kept, i)
	return found
}

// fill reads the events not read yet and returns the indices of those
// kept, in order. Each event is read once (events never change): after
// the first frame a seek is a binary search in kept, whatever the log's
// length.
func (n *narrowing) fill(log *reducer.Log) []int {
	for ; n.scanned < log.Len(); n.scanned++ {
		ev := log.Event(n.scanned)
		if n.match(&ev) {
			n.kept = append(n.kept, n.scanned)
		}
	}
	return n.kept
}

func (n *narrowing) match(ev *model.Event) bool {
	tool, exit := "", (*int)(nil)
	switch b := ev.Body.(type) {
	case *model.Action:
		tool = b.ToolName
	case *model.Observation:
		tool, exit = b.ToolName, b.ExitCode
	}
	if n.tool != "" && !strings.EqualFold(tool, n.tool) {
		return false
	}
	if n.failed && !isError(ev) && (exit == nil || *exit == 0) {
		return false
	}
	if n.nonzero && (exit == nil || *exit == 0) {
		return false
	}
	if n.exit != nil && (exit == nil || *exit != *n.exit) {
		return false
	}
	for _, w := range n.words {
		if !w.matchBytes(ev.Raw) {
			return false
		}
	}
	return true
}

// seekNarrowed is seekShown under a narrowing: the nearest event after i
// (forward) or before it that the narrowing keeps, the kind filter lets
// through and lies on the branch shown, found among the kept events.
func (m *Conversation) seekNarrowed(i int, forward bool) (int, bool) {
	kept := m.narrow.fill(m.log)
	path, linear := m.shownPath()
	shown := func(j int) bool {
		ev := m.log.Event(j)
		return m.filter.shows(shortKind(&ev)) && (linear || path.Contains(j))
	}
	if forward {
		k, _ := slices.BinarySearch(kept, i+1)
		for ; k < len(kept); k++ {
			if shown(kept[k]) {
				return kept[k], true
			}
		}
		return 0, false
	}
	k, _ := slices.BinarySearch(kept, i)
	for k--; k >= 0; k-- {
		if shown(kept[k]) {
			return kept[k], true
		}
	}
	return 0, false
}

// label is the narrowing as the list's title says it.
func (n *narrowing) label() string {
	if n == nil {
		return ""
	}
	return "| " + model.SanitizeLine(n.query)
}

// openNarrow opens the | prompt with the narrowing in force to edit.
func (m *Conversation) openNarrow() {
	in := newTextInput()
	if m.narrow != nil {
		in.SetValue(m.narrow.query)
		in.CursorEnd()
	}
	m.input = prompt{kind: promptNarrow, in: in}
}

// setNarrowing puts the typed narrowing in force (empty: none) and places
// the list anew, as a change of the kind filter does.
func (m *Conversation) setNarrowing(q string) {
	n, err := parseNarrowing(q)
	if err != nil {
		m.setFlash("narrow: " + err.Error())
		return
	}
	h := m.layout().list.h - 1
	var rows []int
	if h > 0 {
		rows = m.visibleRows(h)
	}
	m.narrow = n
	m.reanchor(m.cursor, rows)
}
