package conversation

import (
	"strings"
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// narrowedRows are the events the list shows on screen now.
func narrowedRows(m *Conversation) []int { return m.visibleRows(m.layout().list.h - 1) }

// TestNarrowByTextToolAndFailure: | narrows the list to the events with
// every term — a failed terminal observation by "failed", by "exit:1",
// by tool and text together — combined with the kind filter; an empty
// narrowing shows everything again.
func TestNarrowByTextToolAndFailure(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.ErrorLog(t)}, 120, 40)
	all := len(narrowedRows(m))
	narrow := func(q string) []int {
		t.Helper()
		press(t, m, "|")
		if !strings.Contains(screen(m), "tool:NAME") {
			t.Fatalf("| opens no prompt:\n%s", screen(m))
		}
		press(t, m, "ctrl+u")
		typeText(t, m, q)
		press(t, m, "enter")
		return narrowedRows(m)
	}
	failedObs := -1
	for i := range m.Log.Len() {
		if ev := m.Log.Event(i); ev.ID == "e0000000-0000-4000-8000-000000000002" {
			failedObs = i
		}
	}
	if rows := narrow("exit:1"); len(rows) != 1 || rows[0] != failedObs {
		t.Errorf("exit:1 shows %v, want [%d]", rows, failedObs)
	}
	if !strings.Contains(m.View(), "| exit:1") {
		t.Errorf("the list's title does not say the narrowing:\n%s", m.View())
	}
	rows := narrow("failed")
	if !contains(rows, failedObs) || len(rows) >= all {
		t.Errorf("failed shows %v (all %d)", rows, all)
	}
	for _, i := range rows {
		if ev := m.Log.Event(i); !isError(&ev) && !strings.Contains(string(ev.Raw), `"exit_code":`) {
			t.Errorf("failed shows #%d, which did not fail", i)
		}
	}
	if rows := narrow("tool:terminal missing.txt"); len(rows) != 2 {
		// the action and its failed observation: both say missing.txt
		// (the cursor moved to the nearest of them).
		t.Errorf("tool:terminal missing.txt shows %v", rows)
	}
	for _, i := range narrow("tool:terminal missing.txt") {
		ev := m.Log.Event(i)
		if i != m.cursor && (!strings.Contains(string(ev.Raw), "missing.txt") || !strings.Contains(string(ev.Raw), `"tool_name":"terminal"`)) {
			t.Errorf("tool:terminal missing.txt shows #%d: %.120s", i, ev.Raw)
		}
	}
	// With the kind filter: only observations of those.
	press(t, m, "f")
	m.setFilter(m.filter.toggled("Obs"))
	press(t, m, "esc")
	for _, i := range narrowedRows(m) {
		if ev := m.Log.Event(i); i != m.cursor && shortKind(&ev) != "Obs" {
			t.Errorf("the kind filter is not kept: #%d is %s", i, shortKind(&ev))
		}
	}
	m.setFilter(defaultFilter())
	if rows := narrow(""); len(rows) != all {
		t.Errorf("an empty narrowing shows %d rows, want all %d", len(rows), all)
	}
	narrow("exit:x")
	if !strings.Contains(m.View(), "exit: takes a number") {
		t.Errorf("a bad term is not said:\n%s", m.View())
	}
}

func contains(list []int, x int) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}
