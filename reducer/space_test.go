package reducer

import (
	"reflect"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/arena"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// spaceReader reads events into a log's space the way the files reader
// does: goroutines (here, readers taking turns by job) carving buffers
// from blocks they take from the space, big events in a block of their
// own. It remembers every block it was given.
type spaceReader struct {
	sp     *Space
	blocks [][]byte
	slabs  [2][]byte
}

// block is a block from the space, remembered.
func (r *spaceReader) block(n int) []byte {
	b := r.sp.Block(n)
	r.blocks = append(r.blocks, b)
	return b
}

// read decodes ev again from a copy of its raw bytes made by reader k, as
// a file read into the space would be.
func (r *spaceReader) read(t *testing.T, k int, ev model.Event) model.Event {
	t.Helper()
	const blockSize = 32 << 10
	var buf []byte
	if n := len(ev.Raw); n > blockSize/4 {
		buf = r.block(n)
	} else {
		if cap(r.slabs[k])-len(r.slabs[k]) < n {
			r.slabs[k] = r.block(blockSize)[:0]
		}
		start := len(r.slabs[k])
		r.slabs[k] = append(r.slabs[k], ev.Raw...)
		buf = r.slabs[k][start : start+n : start+n]
	}
	copy(buf, ev.Raw)
	got, err := model.Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	if su, ok := ev.Body.(*model.StateUpdate); ok && su.Subscribe {
		got.Body.(*model.StateUpdate).Subscribe = true
	}
	return got
}

// holds reports whether p points into a block the space handed out.
func (r *spaceReader) holds(a uintptr) bool {
	for _, b := range r.blocks {
		lo := arena.Addr(b)
		if a >= lo && a < lo+uintptr(cap(b)) {
			return true
		}
	}
	return false
}

// TestLogKeepsEventsReadIntoItsSpaceWhereTheyLie reads a generated
// conversation past the size the log keeps off the heap, with the odd
// events among it, into the log's space by two readers taking turns, and
// appends it: every event must come back as read; the log must have
// copied none (no block of its own), kept each where it lies; and nothing
// it hands out, the events it keeps whole included, may point into the
// space, which goes with the log.
func TestLogKeepsEventsReadIntoItsSpaceWhereTheyLie(t *testing.T) {
	t.Parallel()
	evs := testevents.GeneratedWith(t, gen.Options{Events: 5000, Seed: 9, Branches: 3})
	odd := oddEvents(t)
	in := append(append(append([]model.Event(nil), evs[:2500]...), odd...), evs[2500:]...)
	log := NewLog(nil, 0)
	r := &spaceReader{sp: log.Space()}
	all := make([]model.Event, len(in))
	const job = 300
	for k, ev := range in {
		all[k] = ev
		// The placeholder and the event built by hand are no file read.
		if len(ev.Raw) > 0 && ev.Kind != model.KindUnreadable {
			all[k] = r.read(t, k/job%2, ev)
		}
	}
	for k := 0; k < len(all); k += 700 {
		log.Append(all[k:min(k+700, len(all))]...)
	}
	if log.Len() != len(all) {
		t.Fatalf("%d events, want %d", log.Len(), len(all))
	}
	if log.st.filling != 0 {
		t.Fatalf("the log copied events into %d bytes of its own", log.st.fill)
	}
	if len(log.st.adopted) != len(log.st.blocks) || len(log.st.adopted) == 0 {
		t.Fatalf("%d of the log's %d blocks are the space's", len(log.st.adopted), len(log.st.blocks))
	}
	if r.sp.arena.NumBlocks() == 0 {
		t.Fatalf("the space handed out %d bytes, none off the heap", r.sp.handed)
	}
	if len(log.st.whole) != len(odd)-1 {
		t.Fatalf("%d events kept whole, want %d", len(log.st.whole), len(odd)-1)
	}
	v := log.st.view()
	for i := range all {
		rec := v.rec(i)
		if rec.flags&flagWhole == 0 && arena.Addr(v.raw(rec)) != arena.Addr(all[i].Raw) {
			t.Fatalf("event %d is kept elsewhere than where it was read", i)
		}
	}
	readBackBothWays(t, log, all, func(i int, got model.Event) {
		walkMemory(reflect.ValueOf(got), "Event", map[uintptr]bool{}, func(what string, p uintptr) {
			if r.holds(p) {
				t.Fatalf("%s of Event(%d) points into the space", what, i)
			}
		})
	})
	handsOutNoBlock(t, log)
}

// TestSpaceBlocksNoEventIsFoundInAreCopied: an event read into a block the
// space did not hand out (another log's, a reader's own) is copied, and a
// block of the space no appended event lies in stays the space's.
func TestSpaceBlocksNoEventIsFoundInAreCopied(t *testing.T) {
	t.Parallel()
	evs := testevents.GeneratedWith(t, gen.Options{Events: 200, Seed: 3})
	log := NewLog(nil, 0)
	other := &spaceReader{sp: NewLog(nil, 0).Space()}
	mine := &spaceReader{sp: log.Space()}
	mine.block(1 << 10) // never read into
	for k := range evs {
		evs[k] = other.read(t, 0, evs[k])
	}
	log.Append(evs...)
	if len(log.st.adopted) != 0 || log.st.filling == 0 {
		t.Fatalf("%d blocks adopted, copies in %d", len(log.st.adopted), log.st.filling)
	}
	if len(log.st.space.pending) != 1 {
		t.Fatalf("%d blocks pending, want the 1 never read into", len(log.st.space.pending))
	}
	for i := range evs {
		if !reflect.DeepEqual(log.Event(i), evs[i]) {
			t.Fatalf("Event(%d) differs from the event appended", i)
		}
	}
}
