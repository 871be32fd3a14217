package reducer

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// TestGroupIndexAgreesWithAScan checks NextInGroups and PrevInGroups
// against a plain scan of the events' groups, for every position of every
// recording and of a generated conversation, over random group sets
// (empty, one group, several, all).
func TestGroupIndexAgreesWithAScan(t *testing.T) {
	t.Parallel()
	if model.NumGroups() > 64 {
		t.Fatalf("%d groups do not fit a GroupSet", model.NumGroups())
	}
	logs := map[string][]model.Event{"generated": testevents.Generated(t, 3000, 7)}
	for _, dir := range fixtures.Recordings(t) {
		logs[filepath.Base(dir)] = testevents.Recorded(t, dir)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, evs := range logs {
		log := NewLog(nil, 0)
		log.Append(evs...)
		groups := make([]int, len(evs))
		for i := range evs {
			groups[i] = model.GroupIndex(model.GroupOf(&evs[i]))
		}
		for range 20 {
			var set GroupSet
			switch rng.IntN(4) {
			case 0: // empty
			case 1:
				set = set.With(rng.IntN(model.NumGroups()))
			case 2:
				for range 3 {
					set = set.With(rng.IntN(model.NumGroups()))
				}
			default:
				set = ^GroupSet(0)
			}
			for i := -1; i <= len(evs); i++ {
				wantNext, wantPrev := -1, -1
				for j := i + 1; j < len(evs); j++ {
					if set.Has(groups[j]) {
						wantNext = j
						break
					}
				}
				for j := min(i, len(evs)) - 1; j >= 0; j-- {
					if set.Has(groups[j]) {
						wantPrev = j
						break
					}
				}
				if got, ok := log.NextInGroups(i, set); got != wantNext || ok != (wantNext >= 0) {
					t.Fatalf("%s: NextInGroups(%d, %b) = %d, %v; a scan finds %d", name, i, set, got, ok, wantNext)
				}
				if got, ok := log.PrevInGroups(i, set); got != wantPrev || ok != (wantPrev >= 0) {
					t.Fatalf("%s: PrevInGroups(%d, %b) = %d, %v; a scan finds %d", name, i, set, got, ok, wantPrev)
				}
			}
		}
	}
}
