package conversation

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestSearchEscClearsAndNSaysItWrapped: n past the last match says that
// it wrapped to the first (N the other way), and esc in the list drops
// the search rather than doing nothing.
func TestSearchEscClearsAndNSaysItWrapped(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: tuitest.Generated(t, 40, 1), Title: "find", NoColor: true})
	tm := termtest.Start(t, m, 120, 30)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	w.Wait("1/40")
	tm.Type("/system prompt")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	w.Wait("match 1/1")
	tm.Type("n")
	w.Wait("search wrapped to the first match (n)")
	tm.Type("N")
	w.Wait("last match (N)")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	w.Wait("cleared the search for “system prompt”")
	tm.Type("q")
	root := tm.Final(t, 5*time.Second).(*tui.Model).Root().(*Conversation)
	if root.search.query != "" || len(root.search.matches) != 0 {
		t.Fatalf("esc left the search %q with %d matches", root.search.query, len(root.search.matches))
	}
}
