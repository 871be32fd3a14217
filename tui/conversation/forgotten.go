package conversation

import (
	"ohwatch/model"
	"ohwatch/reducer"
)

// forgetIndex answers "was event i forgotten by a condensation at or
// before the cursor?" in constant time. The reducer's State.Forgotten
// answers it too, but walks every condensation so far, which a frame of
// a long conversation (thousands of condensations, a lookup per row) cannot
// afford. The index records, for each forgotten event, the first
// condensation that forgot it; it grows with the log as the list is drawn.
type forgetIndex struct {
	// by[i] is 1 + the index of the condensation that forgot event i, or
	// 0 while no condensation has.
	by []int32
	// scanned is how many events of the log have been looked at.
	scanned int
}

// update looks at the events logged since the last call.
func (f *forgetIndex) update(log *reducer.Log) {
	n := log.Len()
	if len(f.by) < n {
		f.by = append(f.by, make([]int32, n-len(f.by))...)
	}
	for c := f.scanned; c < n; c++ {
		ev := log.Event(c)
		cond, ok := ev.Body.(*model.Condensation)
		if !ok {
			continue
		}
		for _, id := range cond.ForgottenIDs {
			if i, ok := log.IndexOf(id); ok && f.by[i] == 0 {
				f.by[i] = int32(c + 1)
			}
		}
	}
	f.scanned = n
}

// forgottenAt reports whether event i had been forgotten as of the event
// at cursor.
func (f *forgetIndex) forgottenAt(i, cursor int) bool {
	if i < 0 || i >= len(f.by) || f.by[i] == 0 {
		return false
	}
	return int(f.by[i])-1 <= cursor
}
