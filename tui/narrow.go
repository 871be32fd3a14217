package tui

import (
	"errors"
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
	// memo is each event's answer once asked: 0 not yet, 1 shown, 2
	// hidden. Events never change, so it stays right as the log grows.
	memo []int8
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
	if i < len(n.memo) && n.memo[i] != 0 {
		return n.memo[i] == 1
	}
	ev := log.Event(i)
	keep := n.match(&ev)
	if i >= len(n.memo) {
		n.memo = append(n.memo, make([]int8, i+1-len(n.memo))...)
	}
	n.memo[i] = 2
	if keep {
		n.memo[i] = 1
	}
	return keep
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
