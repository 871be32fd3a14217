package arena

import (
	"runtime/debug"
	"testing"
)

var sink byte

// faults reports whether reading b[0] faults: an address no longer mapped.
func faults(b []byte) (faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { faulted = recover() != nil }()
	sink = b[0]
	return false
}

// TestReleasedBlocksUnmappedUnderDebug: under -tags arenadebug a released
// block is unmapped, so an alias that outlived its arena faults where it
// is read; in a normal build the block is pooled and reads as it was.
func TestReleasedBlocksUnmappedUnderDebug(t *testing.T) {
	a := New(new(int))
	b := a.Bytes(1 << 20)
	if a.NumBlocks() == 0 {
		t.Skip("this system maps no blocks: the arena is the heap")
	}
	b[0] = 7
	s := String(b[:1])
	a.release()
	if got := faults(b); got != debugUnmap {
		t.Fatalf("reading a released block faults: %v, want %v (debugUnmap)", got, debugUnmap)
	}
	if !debugUnmap && s != "\x07" {
		t.Errorf("a pooled block's alias reads %q", s)
	}
}

// TestMakeIsZeroed: values from a reused block start zeroed.
func TestMakeIsZeroed(t *testing.T) {
	a := New(new(int))
	first := Make[uint64](a, 1<<17)
	for i := range first {
		first[i] = ^uint64(0)
	}
	a.release()
	again := Make[uint64](New(new(int)), 1<<17)
	for i, v := range again {
		if v != 0 {
			t.Fatalf("value %d is %x", i, v)
		}
	}
}

// TestViews: the views share the bytes they view and Within says where
// one lies in another.
func TestViews(t *testing.T) {
	b := []byte("hello, world")
	s := String(b)
	if s != "hello, world" || StringAddr(s) != Addr(b) || !SameString(s, String(b)) || SameString(s, "hello, world") {
		t.Fatalf("String(%q) = %q", b, s)
	}
	if v := Bytes(s); Addr(v) != Addr(b) || len(v) != len(b) {
		t.Fatalf("Bytes does not view the string's bytes")
	}
	if off, ok := Within(b, b[7:]); !ok || off != 7 {
		t.Errorf("Within(b, b[7:]) = %d, %v", off, ok)
	}
	if _, ok := Within(b[:5], b[3:8]); ok {
		t.Error("a slice running past the end lies within")
	}
	if String(nil) != "" {
		t.Error("String(nil) is not empty")
	}
}

// TestStringOfNothingPointsNowhere: String of an empty span of a buffer
// is "" with no address, so keeping it keeps nothing of the buffer (an
// empty field of a listed item kept the whole item: 5 kB a conversation).
func TestStringOfNothingPointsNowhere(t *testing.T) {
	buf := []byte(`{"response_id":""}`)
	if p := StringAddr(String(buf[16:16])); p != 0 {
		t.Errorf("String of an empty span points at %#x, want nowhere", p)
	}
	if s := String(buf[2:13]); s != "response_id" || StringAddr(s) != Addr(buf[2:]) {
		t.Errorf("String(buf[2:13]) = %q, not a view of buf", s)
	}
}
