package fleet

import (
	"testing"
	"time"

	"ohwatch/model"
)

// TestSameTitleCountsReruns: SameTitle counts the conversations under a
// title as titles come and change (a listing's title, then a renamed
// one), and Started is the listing's creation time, else the earliest
// event's.
func TestSameTitleCountsReruns(t *testing.T) {
	f := New()
	t0 := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	ref := func(id string) model.ConversationRef {
		return model.ConversationRef{Source: "http://h:1", Kind: model.SourceServer, ID: id}
	}
	meta := func(id, title string, created time.Time) model.FleetUpdate {
		return model.FleetUpdate{Ref: ref(id), Meta: &model.ConversationMeta{Title: title, CreatedAt: created}}
	}
	f.Apply([]model.FleetUpdate{meta("a", "Fix the cache", t0), meta("b", "Fix the cache", t0.Add(time.Hour)), meta("c", "Other", time.Time{})})
	if n := f.SameTitle("Fix the cache"); n != 2 {
		t.Fatalf("two runs of one title counted %d", n)
	}
	if n := f.SameTitle("Other"); n != 1 {
		t.Fatalf("a title of its own counted %d", n)
	}
	// Renamed: it leaves its old title's count and joins the new one's.
	f.Apply([]model.FleetUpdate{meta("b", "Other", t0.Add(time.Hour))})
	if f.SameTitle("Fix the cache") != 1 || f.SameTitle("Other") != 2 {
		t.Fatalf("after a rename: %d, %d", f.SameTitle("Fix the cache"), f.SameTitle("Other"))
	}
	if r, _ := f.Row(ref("b")); !r.Started.Equal(t0.Add(time.Hour)) {
		t.Fatalf("Started %v, want the listing's creation time", r.Started)
	}
	// No creation time listed: the earliest event's time, in any order.
	evs := []model.Event{
		{ID: "e2", Kind: "ConversationStateUpdateEvent", Time: t0.Add(2 * time.Minute), Body: &model.StateUpdate{Key: "stats"}},
		{ID: "e1", Kind: "ConversationStateUpdateEvent", Time: t0.Add(time.Minute), Body: &model.StateUpdate{Key: "stats"}},
	}
	f.Apply([]model.FleetUpdate{{Ref: ref("c"), Batch: model.Batch{Events: evs}}})
	if r, _ := f.Row(ref("c")); !r.Started.Equal(t0.Add(time.Minute)) {
		t.Fatalf("Started %v, want the earliest event's time", r.Started)
	}
}
