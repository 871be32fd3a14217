package fleetview

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// TestFleetPatchKeepsTheArrangedOrder streams events, status changes and
// new conversations into a table of 400 rows, frame by frame, under every
// sort column both ways: after each frame the rows patch placed are the
// rows a full arrange gives, in the same order under the same headings.
//
// It reads the table's rows and calls patch and arrange themselves: what
// it checks is that two private ways of placing rows agree, which no
// screen shows (both draw the same table when they do).
func TestFleetPatchKeepsTheArrangedOrder(t *testing.T) {
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	statuses := []string{model.StatusRunning, model.StatusFinished, model.StatusError, model.StatusWaitingForConfirmation, model.StatusIdle}
	evs := tuitest.GeneratedEvents(t, 3000, 5)
	for sort := range 12 {
		for _, desc := range []bool{false, true} {
			f := NewFleet(FleetOptions{Now: func() time.Time { return now }, NoColor: true})
			f.SetSize(160, 48)
			rng := rand.New(rand.NewPCG(uint64(sort), 1))
			ref := func(i int) model.ConversationRef {
				return model.ConversationRef{Source: "http://h:1", Kind: model.SourceServer, ID: fmt.Sprintf("%032x", i)}
			}
			var ups []model.FleetUpdate
			for i := range 400 {
				ups = append(ups, metaUp(ref(i), model.ConversationMeta{Title: fmt.Sprint("c", i%37), Status: statuses[i%len(statuses)],
					UpdatedAt: now.Add(-time.Duration(i%91) * time.Minute)}), connUp(ref(i), model.PhaseListed))
			}
			f.Update(fleetUpdatesMsg{ups: ups})
			for range fleetKeysFor(sort, desc) {
				f.Update(tuitest.KeyMsg("s"))
			}
			if desc {
				f.Update(tuitest.KeyMsg("S"))
			}
			patched := 0
			for frame := range 40 {
				var ups []model.FleetUpdate
				for range 1 + rng.IntN(8) {
					c := rng.IntN(420)
					switch rng.IntN(3) {
					case 0:
						at := rng.IntN(len(evs) - 3)
						ups = append(ups, connUp(ref(c), model.PhaseLive), eventsUp(ref(c), evs[at:at+3]...))
					case 1:
						ups = append(ups, metaUp(ref(c), model.ConversationMeta{Title: "t", Status: statuses[rng.IntN(len(statuses))],
							UpdatedAt: now.Add(time.Duration(frame) * time.Second)}))
					case 2:
						ups = append(ups, connUp(ref(c), model.PhaseListed))
					}
				}
				f.fleet.ApplyAt(ups, now)
				if f.patch(touchedBy(ups)) {
					patched++
				} else {
					f.arrange()
				}
				got := f.rows
				heads := map[int]bool{}
				for k := range f.heads {
					heads[k] = true
				}
				f.rows, f.spare = nil, nil
				f.arrange()
				if len(got) != len(f.rows) {
					t.Fatalf("sort %d desc %v frame %d: %d rows patched, %d arranged", sort, desc, frame, len(got), len(f.rows))
				}
				for i := range got {
					if got[i].Ref != f.rows[i].Ref {
						t.Fatalf("sort %d desc %v frame %d: row %d is %s, arranged %s", sort, desc, frame, i, got[i].Ref.ID, f.rows[i].Ref.ID)
					}
				}
				for k := range f.heads {
					if !heads[k] {
						t.Fatalf("sort %d frame %d: heading at %d missing", sort, frame, k)
					}
				}
			}
			if patched == 0 {
				t.Fatalf("sort %d: never patched", sort)
			}
		}
	}
}

// fleetKeysFor is how many times s is pressed to reach sort column n.
func fleetKeysFor(n int, _ bool) []struct{} { return make([]struct{}, n) }
