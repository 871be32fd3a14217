package conversation

import (
	"testing"

	"ohwatch/model"
)

// TestShownEventsAgreeWithAScan checks that the cursor's moves, which ask
// the log's index of kinds, land where a scan of every event with shows
// would: for every kind filter of one group, with noise shown and hidden,
// on a linear log and on each branch of a branched one, from every event.
func TestShownEventsAgreeWithAScan(t *testing.T) {
	t.Parallel()
	linear := newModel(Options{Log: benchLog(t, 400), Title: "linear"}, 120, 40)
	branched := newModel(Options{Log: branchedLog(t, 400, 3), Title: "branched"}, 120, 40)
	views := map[string]*Conversation{"linear": linear, "HEAD": branched}
	other := newModel(Options{Log: branchedLog(t, 400, 3), Title: "other"}, 120, 40)
	if points := other.Log.BranchPoints(); len(points) > 0 {
		other.tree.branch = branchView{other: true, first: other.Log.Children(points[0])[0]}
		views["other branch"] = other
	}
	for name, m := range views {
		for _, hide := range []bool{true, false} {
			for _, g := range append([]string{""}, model.Groups()...) {
				f := defaultFilter()
				f.hideNoise = hide
				if g != "" {
					f = f.toggled(g)
				}
				m.filter = f
				for _, cursor := range []int{0, m.Log.Len() / 2, m.Log.Len() - 1} {
					m.cursor = cursor
					n := m.Log.Len()
					// The scan: whether each event shows, then the next and
					// previous shown event of every index, in one pass each
					// way (quadratic rescans took minutes under -race).
					next, prev := make([]int, n+2), make([]int, n+2)
					want := -1
					for j := n; j >= -1; j-- {
						next[j+1] = want
						if j >= 0 && j < n && m.shows(j) {
							want = j
						}
					}
					want = -1
					for j := -1; j <= n; j++ {
						prev[j+1] = want
						if j >= 0 && j < n && m.shows(j) {
							want = j
						}
					}
					for i := -1; i <= n; i++ {
						wantNext, wantPrev := next[i+1], prev[i+1]
						if got, ok := m.nextShown(i); ok != (wantNext >= 0) || ok && got != wantNext {
							t.Fatalf("%s, filter %q (noise hidden %v), cursor %d: nextShown(%d) = %d, %v; a scan finds %d", name, g, hide, cursor, i, got, ok, wantNext)
						}
						if got, ok := m.prevShown(i); ok != (wantPrev >= 0) || ok && got != wantPrev {
							t.Fatalf("%s, filter %q (noise hidden %v), cursor %d: prevShown(%d) = %d, %v; a scan finds %d", name, g, hide, cursor, i, got, ok, wantPrev)
						}
					}
				}
			}
		}
	}
}
