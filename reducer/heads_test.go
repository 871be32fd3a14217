package reducer

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// TestHeadsAreTheEvents: the head of every event, packed in its record
// or kept whole (an id that is no uuid, an event built by hand), is the
// id, kind, source, time and bytes of the event the log rebuilds.
func TestHeadsAreTheEvents(t *testing.T) {
	t.Parallel()
	evs := testevents.Generated(t, 700, 2)
	evs = append(evs, testevents.Recorded(t, filepath.Join("..", "testdata", "situations"))...)
	evs = append(evs, model.Event{ID: "not-a-uuid", Kind: "MessageEvent", Source: "user",
		Time: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC), Raw: []byte(`{"id":"not-a-uuid"}`)})
	log := NewLog(nil, 0)
	log.Append(evs...)
	whole, n := 0, 0
	for i, h := range log.Heads(log.HeadPath()) {
		ev := log.Event(i)
		if h.ID != ev.ID || h.Kind != ev.Kind || h.Source != ev.Source || !h.Time.Equal(ev.Time) ||
			h.Time.Location() != ev.Time.Location() || !bytes.Equal(h.Raw, ev.Raw) {
			t.Fatalf("event %d: head %q %q %q %v, event %q %q %q %v", i, h.ID, h.Kind, h.Source, h.Time, ev.ID, ev.Kind, ev.Source, ev.Time)
		}
		if !log.Decoded(i) {
			whole++
		}
		n++
	}
	if n != log.Len() || whole == 0 {
		t.Fatalf("%d heads of %d events, %d kept whole: the test covers too little", n, log.Len(), whole)
	}
}
