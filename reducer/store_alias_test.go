package reducer

import (
	"reflect"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/arena"
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
	handsOutNoBlock(t, log)
}

// handsOutNoBlock fails t when an event or a State log hands out (every
// 97th) points into one of its blocks.
func handsOutNoBlock(t *testing.T, log *Log) {
	t.Helper()
	inBlock := func(a uintptr) bool {
		for _, b := range log.st.blocks {
			lo := arena.Addr(b)
			if a >= lo && a < lo+uintptr(cap(b)) {
				return true
			}
		}
		return false
	}
	str := func(what string, s string) {
		if s != "" && inBlock(arena.StringAddr(s)) {
			t.Fatalf("%s points into a block of the log", what)
		}
	}
	for i := 0; i < log.Len(); i += 97 {
		ev := log.Event(i)
		if len(ev.Raw) > 0 && inBlock(arena.Addr(ev.Raw)) {
			t.Fatalf("Event(%d).Raw points into a block of the log", i)
		}
		str("Summary", ev.Summary)
		str("ID", ev.ID)
		if a, ok := ev.Body.(*model.Action); ok {
			str("ToolName", a.ToolName)
			str("Command", a.Command)
		}
		walkMemory(reflect.ValueOf(log.At(i)), "At", map[uintptr]bool{}, func(what string, p uintptr) {
			if inBlock(p) {
				t.Fatalf("%s of At(%d) points into a block of the log", what, i)
			}
		})
	}
}

// walkMemory calls fn with the address of every string's and slice's bytes
// reachable from v, unexported fields and maps included, each pointer
// followed once.
func walkMemory(v reflect.Value, path string, seen map[uintptr]bool, fn func(string, uintptr)) {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			fn(path, arena.StringAddr(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer {
			if seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
		}
		walkMemory(v.Elem(), path, seen, fn)
	case reflect.Struct:
		for k := range v.NumField() {
			walkMemory(v.Field(k), path+"."+v.Type().Field(k).Name, seen, fn)
		}
	case reflect.Slice:
		if v.Len() > 0 {
			fn(path, v.Pointer())
		}
		fallthrough
	case reflect.Array:
		for k := range v.Len() {
			walkMemory(v.Index(k), path+"[]", seen, fn)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walkMemory(it.Key(), path+"{key}", seen, fn)
			walkMemory(it.Value(), path+"{}", seen, fn)
		}
	}
}
