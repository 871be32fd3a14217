package reducer

import (
	"reflect"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// oddEvents are events that decoding their raw bytes would not give back
// as they are, or whose header does not fit a record, which the log keeps
// whole, and (fourth) one with an unusual header that a record holds.
func oddEvents(t *testing.T) []model.Event {
	t.Helper()
	decode := func(raw string) model.Event {
		ev, err := model.Decode([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	// The first frame a socket sends: only the client knows.
	sub := decode(`{"kind":"ConversationStateUpdateEvent","id":"0f000000-0000-4000-8000-000000000001","timestamp":"2026-02-01T10:00:00","source":"environment","key":"execution_status","value":"running"}`)
	sub.Body.(*model.StateUpdate).Subscribe = true
	// A timestamp with an offset: its zone would be lost in nanoseconds.
	zoned := decode(`{"kind":"MessageEvent","id":"0f000000-0000-4000-8000-000000000002","timestamp":"2026-02-01T10:00:00+02:00","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"hello"}]}}`)
	// An id that is no uuid, and a parent that is none either.
	named := decode(`{"kind":"MessageEvent","id":"first-message","parent_id":"no-such-parent","timestamp":"2026-02-01T10:00:01","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`)
	// A source outside the usual ones, and a new root.
	rooted := decode(`{"kind":"MessageEvent","id":"0f000000-0000-4000-8000-000000000003","parent_id":"__root__","timestamp":"2026-02-01T10:00:02","source":"hook","llm_message":{"role":"user","content":[{"type":"text","text":"again"}]}}`)
	// A placeholder for an event too big to read.
	unreadable, _ := model.UnreadableEvent([]byte(`{"kind":"ObservationEvent","id":"0f000000-0000-4000-8000-000000000004","timestamp":"2026-02-01T10:00:03"`), 1<<20)
	// An event built by hand, with no raw bytes.
	byHand := model.Event{Kind: "MessageEvent", ID: "0f000000-0000-4000-8000-000000000005", Source: "agent",
		Summary: "by hand", Body: &model.Message{Role: "assistant"}}
	return []model.Event{sub, zoned, named, rooted, unreadable, byHand}
}

// TestLogGivesBackEveryEventAsAppended appends a generated conversation
// big enough for the log to keep it off the heap, with the odd events
// among it, and reads every event back in an order that defeats the cache
// of decoded events: each must equal what was appended, and each id must
// find its event.
func TestLogGivesBackEveryEventAsAppended(t *testing.T) {
	t.Parallel()
	evs := testevents.GeneratedWith(t, gen.Options{Events: 5000, Seed: 9, Branches: 3})
	odd := oddEvents(t)
	all := append(append(append([]model.Event(nil), evs[:2500]...), odd...), evs[2500:]...)
	log := NewLog(nil, 0)
	for k := 0; k < len(all); k += 700 {
		log.Append(all[k:min(k+700, len(all))]...)
	}
	if log.Len() != len(all) {
		t.Fatalf("%d events, want %d", log.Len(), len(all))
	}
	if log.st.arena == nil || log.st.stored < offHeapFrom {
		t.Fatalf("the log keeps %d bytes and no block off the heap", log.st.stored)
	}
	if len(log.st.whole) != len(odd)-1 {
		t.Fatalf("%d events kept whole, want %d", len(log.st.whole), len(odd)-1)
	}
	readBackBothWays(t, log, all, func(i int, _ model.Event) {
		if id := all[i].ID; id != "" {
			if j, ok := log.IndexOf(id); !ok || j != i {
				t.Fatalf("IndexOf(%q) = %d, %v; want %d", id, j, ok, i)
			}
		}
	})
	if u, ok := log.Event(2500).Body.(*model.StateUpdate); !ok || !u.Subscribe {
		t.Fatal("the subscribe mark was lost")
	}
	if added := log.Append(all[10], odd[2], all[len(all)-1]); added != 0 || log.Duplicates() != 3 {
		t.Fatalf("appending events held again added %d, %d duplicates", added, log.Duplicates())
	}
}

// readBackBothWays reads every event of log back, first to last and then
// last to first, an order that defeats the cache of decoded events: each
// must equal what was appended (all), and check is called with it.
func readBackBothWays(t *testing.T, log *Log, all []model.Event, check func(i int, got model.Event)) {
	t.Helper()
	for pass := range 2 {
		for k := range all {
			i := k
			if pass == 1 {
				i = len(all) - 1 - k
			}
			got := log.Event(i)
			if !reflect.DeepEqual(got, all[i]) {
				t.Fatalf("Event(%d) = %+v\nwant %+v", i, got, all[i])
			}
			check(i, got)
		}
	}
}

// TestLogStatesHoldNoneOfTheCallersBytes: what the log folds is detached
// from the caller's buffers, so the States it keeps (checkpoints, Latest)
// do not keep a reader's segments alive.
func TestLogStatesHoldNoneOfTheCallersBytes(t *testing.T) {
	t.Parallel()
	evs := testevents.Generated(t, 600, 4)
	log := newLogEvery(nil, 0, 8)
	log.Append(evs...)
	for _, ev := range evs {
		clear(ev.Raw) // the caller reuses its buffers
	}
	fresh := Fold(Initial(nil, 0), testevents.Generated(t, 600, 4)...)
	if d := diffState(log.Latest(), fresh, nil); d != "" {
		t.Fatalf("Latest changed with the caller's buffers: %s", d)
	}
	if d := diffState(log.At(300), log.At(300), nil); d != "" {
		t.Fatal(d)
	}
	for i := range evs {
		if ev := log.Event(i); len(ev.Raw) == 0 || ev.Raw[0] != '{' {
			t.Fatalf("Event(%d).Raw changed with the caller's buffer: %.20q", i, ev.Raw)
		}
	}
}
