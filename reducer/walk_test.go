package reducer

import (
	"bytes"
	"reflect"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
)

// TestWalkYieldsEveryEventOfThePathWithItsStates walks every branch of a
// generated conversation long enough for its events to be read ahead (and
// a short one, read in line): each path's events, in order, as Event gives
// them (the lent bytes equal to its copy), with the States At gives.
func TestWalkYieldsEveryEventOfThePathWithItsStates(t *testing.T) {
	for _, o := range []gen.Options{
		{Events: walkAheadFrom + 2*walkBatch + 77, Seed: 3, Branches: 2},
		{Events: 300, Seed: 4, Branches: 2},
	} {
		log := NewLog(nil, 0)
		log.Append(testevents.GeneratedWith(t, o)...)
		tips := []int{log.Head()}
		for _, bp := range log.BranchPoints() {
			for _, br := range log.Branches(bp) {
				tips = append(tips, log.Tip(br.First))
			}
		}
		tips = tips[:min(len(tips), 3)]
		if o.Events > walkAheadFrom && len(tips) < 3 {
			t.Fatalf("%d events: %d tips, want branches to walk", o.Events, len(tips))
		}
		for _, tip := range tips {
			p := log.Path(tip)
			var want []int
			for i := range p.indices(log.Len()) {
				want = append(want, i)
			}
			k, prev := 0, -1
			for st := range log.Walk(p) {
				if k >= len(want) || st.Index != want[k] {
					t.Fatalf("tip %d: step %d is event %d, want %v", tip, k, st.Index, want[min(k, len(want)-1)])
				}
				ev := log.Event(st.Index)
				if st.Event.ID != ev.ID || st.Event.Kind != ev.Kind || st.Event.Summary != ev.Summary ||
					!st.Event.Time.Equal(ev.Time) || !bytes.Equal(st.Event.Raw, ev.Raw) {
					t.Fatalf("tip %d, event %d: walked %+v, want %+v", tip, st.Index, st.Event, ev)
				}
				if k%499 == 1 || k == len(want)-1 {
					if !reflect.DeepEqual(st.Before, log.At(prev)) || !reflect.DeepEqual(st.After, log.At(st.Index)) {
						t.Fatalf("tip %d, event %d: the States differ from At's", tip, st.Index)
					}
				}
				prev = st.Index
				k++
			}
			if k != len(want) {
				t.Fatalf("tip %d: walked %d events, the path has %d", tip, k, len(want))
			}
		}
	}
}

// TestWalkLeftEarlyEndsItsReader leaves walks of a long path at several
// points: the goroutine reading ahead is gone when the walk returns, as
// it must be (it reads the log's blocks, which the log's collection gives
// to the next log).
func TestWalkLeftEarlyEndsItsReader(t *testing.T) {
	log := NewLog(nil, 0)
	log.Append(testevents.Generated(t, 2*walkAheadFrom, 5)...)
	for _, stop := range []int{0, 1, walkBatch - 1, walkBatch, walkAheadFrom + 3} {
		n := 0
		for range log.Walk(log.HeadPath()) {
			if n == stop {
				break
			}
			n++
		}
		if n := readersRunning.Load(); n != 0 {
			t.Fatalf("left after %d steps: %d readers still running", stop, n)
		}
	}
}
