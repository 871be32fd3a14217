package reducer

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"ohwatch/model"
)

func TestLogAtEqualsFoldOfEveryPrefix(t *testing.T) {
	tests := []struct{ n, every int }{
		{0, checkpointEvery},
		{1, checkpointEvery},
		{checkpointEvery - 1, checkpointEvery},
		{checkpointEvery, checkpointEvery},
		{checkpointEvery + 1, checkpointEvery},
		{2*checkpointEvery + 3, checkpointEvery},
		// Across chunks with a short checkpoint distance, to keep it fast.
		{2*chunkSize + 17, 8},
	}
	for _, tt := range tests {
		evs := synthEvents(tt.n, uint64(tt.n))
		log := newLogEvery(nil, 0, tt.every)
		// Append in uneven batches, as a stream does.
		for k := 0; k < len(evs); {
			m := min(1+k%37, len(evs)-k)
			log.Append(evs[k : k+m]...)
			k += m
		}
		if log.Len()+log.Duplicates() != tt.n {
			t.Fatalf("n=%d: len %d + duplicates %d", tt.n, log.Len(), log.Duplicates())
		}
		checkEveryPrefix(t, log, nil, 0)
	}
}

func TestLogDedupesByID(t *testing.T) {
	sc := newScript()
	sc.user()
	a := sc.action("TerminalAction", "r1", "c1", "LOW")
	log := NewLog(nil, 0)
	if added := log.Append(sc.evs...); added != 2 {
		t.Fatalf("added %d", added)
	}
	v := log.Version()
	if added := log.Append(a, sc.evs[0], a); added != 0 || log.Duplicates() != 3 || log.Len() != 2 {
		t.Fatalf("added %d duplicates %d len %d", added, log.Duplicates(), log.Len())
	}
	if log.Version() <= v {
		t.Fatal("version must grow on every append")
	}
	if i, ok := log.IndexOf(a.ID); !ok || i != 1 {
		t.Fatalf("IndexOf = %d, %v", i, ok)
	}
	if _, ok := log.IndexOf("nope"); ok {
		t.Fatal("IndexOf found a missing id")
	}
	if ev := log.Event(1); ev.ID != a.ID {
		t.Fatalf("Event(1) = %s", ev.ID)
	}
	if ev := log.Event(5); ev.ID != "" {
		t.Fatal("Event out of range must be zero")
	}
	// Events without an id cannot be deduped: they are all kept.
	noID := model.Event{Kind: "StreamingDeltaEvent", Body: &model.StreamingDelta{}}
	if added := log.Append(noID, noID); added != 2 || log.Len() != 4 {
		t.Fatalf("events without id: added %d", added)
	}
	if s := log.Latest(); s.Applied != 4 || log.At(99).Applied != 4 || log.At(-5).Applied != 0 {
		t.Fatal("Latest/At bounds")
	}
}

func TestLogMarksDiffAndProvenance(t *testing.T) {
	sc := newScript()
	sc.user()                                                                             // 0: user turn, idle>running
	a := sc.action("TerminalAction", "r1", "c1", "HIGH")                                  // 1: running>waiting
	sc.observe("TerminalObservation", a)                                                  // 2: waiting>running
	sc.stats(snapshotStats(0.02, 100, 10, 0))                                             // 3
	sc.add("AgentErrorEvent", "agent", &model.AgentError{ToolCallID: "zz", Error: "bad"}) // 4: error
	sc.agentText("r2")                                                                    // 5: running>finished
	sc.user()                                                                             // 6
	log := NewLog(nil, 0)
	log.Append(sc.evs...)
	m := log.Marks()
	want := Marks{Errors: []int{4}, StatusChanges: []int{0, 1, 2, 5, 6}, UserTurns: []int{0, 6}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("marks %+v, want %+v", m, want)
	}
	if got := m.All(); !reflect.DeepEqual(got, []int{0, 1, 2, 4, 5, 6}) {
		t.Fatalf("All = %v", got)
	}
	log.Append(sc.add("ConversationErrorEvent", "environment", &model.ConversationError{Code: "x"}))
	if !reflect.DeepEqual(m, want) {
		t.Fatal("an earlier Marks snapshot changed after an append")
	}
	for _, tt := range []struct {
		i, next, prev int
		okN, okP      bool
	}{{-1, 0, 0, true, false}, {0, 1, 0, true, false}, {3, 5, 2, true, true}, {6, 0, 5, false, true}} {
		n, okN := Next(want.StatusChanges, tt.i)
		p, okP := Prev(want.StatusChanges, tt.i)
		if n != tt.next || okN != tt.okN || p != tt.prev || okP != tt.okP {
			t.Errorf("at %d: next %d,%v prev %d,%v", tt.i, n, okN, p, okP)
		}
	}
	for _, tt := range []struct {
		i, next, prev int
		okN, okP      bool
	}{{-1, 0, 0, true, false}, {3, 4, 2, true, true}, {6, 0, 5, false, true}} {
		n, okN := m.Next(tt.i)
		p, okP := m.Prev(tt.i)
		if n != tt.next || okN != tt.okN || p != tt.prev || okP != tt.okP {
			t.Errorf("any mark at %d: next %d,%v prev %d,%v", tt.i, n, okN, p, okP)
		}
	}
	diff := log.Diff(1)
	wantDiff := []Change{
		{Field: "status", Before: "running", After: "waiting_for_confirmation"},
		{Field: "iteration", Before: "0", After: "1"},
		{Field: "steps", Before: "0", After: "1"},
		// A step with no metrics reported yet: the cost is not known.
		{Field: "cost", Before: "$0.00", After: "unknown"},
		{Field: "pending", Before: "0", After: "1"},
		{Field: "history", Before: "1", After: "2"},
	}
	if !reflect.DeepEqual(diff, wantDiff) {
		t.Fatalf("Diff(1) = %+v", diff)
	}
	d3 := log.Diff(3)
	if len(d3) == 0 || d3[0].Field != "cost" || d3[0].Before != "unknown" || d3[0].After != "$0.02" {
		t.Fatalf("Diff(3) = %+v", d3)
	}
	if p := log.Provenance(4); p != (Provenance{Status: 2, Metrics: 3, Tasks: -1}) {
		t.Fatalf("Provenance(4) = %+v", p)
	}
	if log.Diff(-1) != nil || log.Diff(100) != nil {
		t.Fatal("Diff out of range must be nil")
	}
}

// TestLogConcurrentAppendAndRead runs readers against a writer; under
// -race it proves the log's sharing is sound.
func TestLogConcurrentAppendAndRead(t *testing.T) {
	evs := synthEvents(chunkSize+100, 7)
	log := newLogEvery(nil, 0, 16)
	readWhileAppending(t, log, evs, func(i int) string {
		s := log.At(i)
		if s.Applied != i+1 {
			return fmt.Sprintf("At(%d).Applied = %d", i, s.Applied)
		}
		_ = log.Marks().All()
		_ = log.Event(i)
		_ = log.Latest().Transitions()
		_ = s.Pending
		return ""
	})
	checkEveryPrefix(t, log, nil, 0)
}

// readWhileAppending appends evs to log in batches of 50 while three
// readers call read at spread indices of what is there; read returns what
// went wrong, or "".
func readWhileAppending(t *testing.T, log *Log, evs []model.Event, read func(i int) string) {
	t.Helper()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for r := range 3 {
		wg.Go(func() {
			for k := 0; ; k++ {
				select {
				case <-done:
					return
				default:
				}
				n := log.Len()
				if n == 0 {
					continue
				}
				if msg := read((k * 7919 * (r + 1)) % n); msg != "" {
					t.Error(msg)
					return
				}
			}
		})
	}
	for k := 0; k < len(evs); k += 50 {
		log.Append(evs[k:min(k+50, len(evs))]...)
	}
	close(done)
	wg.Wait()
}

// TestSnapshotsCountsTheFullStates: the log counts the full_state
// snapshots as they come (a headless run's event count leaves them out),
// a duplicate not counted twice.
func TestSnapshotsCountsTheFullStates(t *testing.T) {
	t.Parallel()
	s := newScript()
	evs := []model.Event{s.user(), s.snapshot("running", nil), s.status("running"), s.agentText("r1"), s.snapshot("finished", nil)}
	log := NewLog(nil, 0)
	log.Append(evs...)
	log.Append(evs[1])
	want := 0
	for i := range log.Len() {
		if su, ok := log.Event(i).Body.(*model.StateUpdate); ok && su.FullState {
			want++
		}
	}
	if got := log.Snapshots(); got != 2 || got != want {
		t.Fatalf("Snapshots() = %d, want 2 (events say %d)", got, want)
	}
}

// TestDecodedTellsStoredBytesFromWholeEvents: events decoded from their
// bytes are stored as bytes Decode accepted; a placeholder for a file
// too large to read, and an event built by hand, are kept whole with
// whatever bytes they hold.
func TestDecodedTellsStoredBytesFromWholeEvents(t *testing.T) {
	t.Parallel()
	decoded, err := model.Decode([]byte(`{"id":"0b2c5a4e-8f31-4d1a-9e27-3c6b1f0a9d42","kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	placeholder, _ := model.UnreadableEvent([]byte(`{"id":"7f3e9c1a-2b4d-4e6f-8a0b-1c2d3e4f5a6b","kind":"ObservationEvent","observation":{"content":"`), 1<<30)
	byHand := model.Event{ID: "e3", Kind: "MessageEvent", Raw: []byte("not JSON"), Body: &model.Message{Role: "user"}}
	log := NewLog(nil, 0)
	log.Append(decoded, placeholder, byHand)
	if log.Len() != 3 {
		t.Fatalf("log has %d events", log.Len())
	}
	for i, want := range []bool{true, false, false} {
		if got := log.Decoded(i); got != want {
			t.Errorf("Decoded(%d) = %v, want %v", i, got, want)
		}
	}
	if log.Decoded(-1) || log.Decoded(3) {
		t.Error("an index outside the log reads as decoded")
	}
}
