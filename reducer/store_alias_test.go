package reducer

import (
	"testing"
	"unsafe"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// TestEventsHandedOutShareNoBlock: what Event and At hand out owns its
// memory. A collected log's blocks are pooled for the next log, so a
// string or Raw pointing into one would change under whoever kept it.
func TestEventsHandedOutShareNoBlock(t *testing.T) {
	t.Parallel()
	evs := testevents.GeneratedWith(t, gen.Options{Events: 5000, Seed: 4})
	log := NewLog(nil, 0)
	log.Append(evs...)
	if log.st.arena == nil {
		t.Fatalf("the log keeps %d bytes and no block off the heap", log.st.stored)
	}
	inBlock := func(p unsafe.Pointer) bool {
		for _, b := range log.st.blocks {
			lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
			if a := uintptr(p); a >= lo && a < lo+uintptr(cap(b)) {
				return true
			}
		}
		return false
	}
	str := func(what string, s string) {
		if s != "" && inBlock(unsafe.Pointer(unsafe.StringData(s))) {
			t.Fatalf("%s points into a block of the log", what)
		}
	}
	for i := 0; i < log.Len(); i += 97 {
		ev := log.Event(i)
		if len(ev.Raw) > 0 && inBlock(unsafe.Pointer(unsafe.SliceData(ev.Raw))) {
			t.Fatalf("Event(%d).Raw points into a block of the log", i)
		}
		str("Summary", ev.Summary)
		str("ID", ev.ID)
		if a, ok := ev.Body.(*model.Action); ok {
			str("ToolName", a.ToolName)
			str("Command", a.Command)
		}
		s := log.At(i)
		str("At's status", s.Status)
		for _, it := range s.Tasks.Items {
			str("At's task", it.Title)
		}
		for _, p := range s.Pending {
			str("At's pending summary", p.Summary)
			str("At's pending id", p.ID)
		}
	}
}
