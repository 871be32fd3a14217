package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
)

// TestSearchEscClearsAndNSaysItWrapped: n past the last match says that
// it wrapped to the first (N the other way), and esc in the list drops
// the search rather than doing nothing.
func TestSearchEscClearsAndNSaysItWrapped(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: generated(t, 40, 1), Title: "find", NoColor: true})
	tm := termtest.Start(t, m, 120, 30)
	w := &termWaiter{t: t, tm: tm}
	w.wait("1/40")
	tm.Type("/system prompt")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	w.wait("match 1/1")
	tm.Type("n")
	w.wait("search wrapped to the first match (n)")
	tm.Type("N")
	w.wait("last match (N)")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	w.wait("cleared the search for “system prompt”")
	tm.Type("q")
	root := tm.Final(t, 5*time.Second).(*Model).Root().(*Conversation)
	if root.search.query != "" || len(root.search.matches) != 0 {
		t.Fatalf("esc left the search %q with %d matches", root.search.query, len(root.search.matches))
	}
}
