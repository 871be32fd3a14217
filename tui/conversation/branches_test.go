package conversation

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/gen"
	"ohwatch/internal/fixtures"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// branchedLog is a generated conversation that was navigated back
// branches times, each time trying again.
func branchedLog(tb testing.TB, n, branches int) *reducer.Log {
	tb.Helper()
	log := reducer.NewLog(nil, 0)
	for raw := range gen.Events(gen.Options{Events: n, Seed: 11, Branches: branches}) {
		log.Append(tuitest.Decode(tb, raw))
	}
	if log.Linear() || len(log.BranchPoints()) == 0 {
		tb.Fatal("the generated conversation has no branch point")
	}
	return log
}

// shownRows is every event index the list would show, in order, noise
// included.
func shownRows(m *Conversation) []int {
	f := m.filter
	f.hideNoise = false
	m.setFilter(f)
	var out []int
	for i := 0; i < m.Log.Len(); i++ {
		if m.shows(i) {
			out = append(out, i)
		}
	}
	return out
}

func TestBranchedListShowsHeadsPath(t *testing.T) {
	t.Parallel()
	log := branchedLog(t, 300, 2)
	m := newModel(Options{Log: log, Title: "branched"}, 120, 40)
	m = jumpTo(t, m, tui.Ordinal(0))
	head := log.HeadPath()
	rows := shownRows(m)
	if len(rows) != head.Len() {
		t.Fatalf("the list shows %d events, HEAD's path has %d", len(rows), head.Len())
	}
	for _, i := range rows {
		if !head.Contains(i) {
			t.Fatalf("%s is shown but off HEAD's path", tui.Ordinal(i))
		}
	}
	if s := screen(m); !strings.Contains(s, "⑂ HEAD's branch") {
		t.Errorf("the header does not say HEAD's branch is shown:\n%s", s)
	}
	// Moving through the list never lands off the branch.
	for k := 0; k < 200; k++ {
		m, _ = press(t, m, "j")
		if at := cursorIndex(t, screen(m)); !head.Contains(at) {
			t.Fatalf("j landed on %s, off the branch", tui.Ordinal(at))
		}
	}
}

// TestBranchKeySwitchesTheView reads the state the view shows (state())
// against the log's fold at the cursor: the whole state, more than the
// panes print.
func TestBranchKeySwitchesTheView(t *testing.T) {
	t.Parallel()
	log := branchedLog(t, 300, 2)
	m := newModel(Options{Log: log, Title: "branched"}, 120, 40)
	point := log.BranchPoints()[0]
	m = jumpTo(t, m, tui.Ordinal(point))
	if s := screen(m); !strings.Contains(s, "⑂") {
		t.Fatalf("no branch mark on the screen:\n%s", s)
	}
	m, _ = press(t, m, "B")
	branches := log.Branches(point)
	s := screen(m)
	if !strings.Contains(s, "branches at "+tui.Ordinal(point)+":") || !strings.Contains(s, "HEAD") {
		t.Fatalf("B does not list the branches:\n%s", s)
	}
	other := -1
	for k, b := range branches {
		if !b.Head {
			other = k
		}
	}
	m, _ = press(t, m, string(rune('1'+other)))
	want := log.Path(log.Tip(branches[other].First))
	if m.cursor != branches[other].First {
		t.Errorf("the cursor is at %s, want the branch's first event %s", tui.Ordinal(m.cursor), tui.Ordinal(branches[other].First))
	}
	rows := shownRows(m)
	if len(rows) != want.Len() {
		t.Fatalf("the list shows %d events, the branch has %d", len(rows), want.Len())
	}
	if s := screen(m); !strings.Contains(s, "not HEAD") {
		t.Errorf("the header does not say the branch is not HEAD's:\n%s", s)
	}
	if st, fold := m.state(), log.At(m.cursor); st.Applied != fold.Applied {
		t.Errorf("the state shown folds %d events, At folds %d", st.Applied, fold.Applied)
	}
	m, _ = press(t, m, "G")
	if m.cursor != want.Tip() {
		t.Errorf("G went to %s, want the branch's tip %s", tui.Ordinal(m.cursor), tui.Ordinal(want.Tip()))
	}
	// Back to HEAD's branch through B.
	m = jumpTo(t, m, tui.Ordinal(point))
	m, _ = press(t, m, "B", string(rune('1'+headIndex(branches))))
	if s := screen(m); !strings.Contains(s, "HEAD's branch") || len(shownRows(m)) != log.HeadPath().Len() {
		t.Errorf("back on HEAD's branch: %d rows\n%s", len(shownRows(m)), s)
	}
}

func headIndex(bs []reducer.Branch) int {
	for k, b := range bs {
		if b.Head {
			return k
		}
	}
	return -1
}

func TestBranchKeyOnALinearLog(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Echo)}, 120, 30)
	m, _ = press(t, m, "B")
	if s := screen(m); strings.Contains(s, "branches at") || !strings.Contains(s, "no branches") {
		t.Errorf("B on a linear log:\n%s", s)
	}
	if s := screen(m); strings.Contains(s, "⑂") {
		t.Errorf("a linear log shows branch marks:\n%s", s)
	}
}

// TestGoldenBranched draws a branched generated conversation at 80×24: on
// HEAD's branch at a branch point, with B's list open, and on another
// branch.
func TestGoldenBranched(t *testing.T) {
	t.Parallel()
	log := branchedLog(t, 300, 2)
	point := log.BranchPoints()[0]
	branches := log.Branches(point)
	other := 1 - headIndex(branches)
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"branched_head_80x24", nil},
		{"branched_list_80x24", []string{"B"}},
		{"branched_other_80x24", []string{"B", string(rune('1' + other))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(Options{Log: log, Title: "branched", Source: "replay gen --branches 2"}, 80, 24)
			m = jumpTo(t, m, tui.Ordinal(point))
			m, _ = press(t, m, tc.keys...)
			golden.RequireEqual(t, []byte(screen(m)))
		})
	}
}
