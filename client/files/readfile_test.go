package files

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

// TestSlabBuffersDoNotOverlap carves many buffers and checks that
// appending to one never writes into its neighbour, and that large buffers
// get their own allocation.
func TestSlabBuffersDoNotOverlap(t *testing.T) {
	var s slab
	var bufs [][]byte
	for i := range 200 {
		b := s.alloc(i*37%1500 + 1)
		for j := range b {
			b[j] = byte(i)
		}
		bufs = append(bufs, b)
	}
	for i, b := range bufs {
		if cap(b) != len(b) {
			t.Fatalf("buffer %d: cap %d, len %d", i, cap(b), len(b))
		}
		_ = append(b, 0xFF) // must reallocate, not spill into the next buffer
	}
	for i, b := range bufs {
		if !bytes.Equal(b, bytes.Repeat([]byte{byte(i)}, len(b))) {
			t.Fatalf("buffer %d was overwritten", i)
		}
	}
	big := s.alloc(slabBlock)
	if len(big) != slabBlock || cap(big) != slabBlock {
		t.Fatalf("big buffer len %d cap %d", len(big), cap(big))
	}
	var none *slab
	if b := none.alloc(10); len(b) != 10 || cap(b) != 10 {
		t.Fatalf("nil slab: len %d cap %d", len(b), cap(b))
	}
}

// TestReadFileRejectsNonRegular refuses a directory (or device) where an
// event file should be.
func TestReadFileRejectsNonRegular(t *testing.T) {
	dir := t.TempDir()
	if _, err := readFile(dir, nil); err == nil {
		t.Fatal("read a directory as a file")
	}
	path := filepath.Join(dir, "f.json")
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	var s slab
	got, err := readFile(path, &s)
	if err != nil || string(got) != "{}" {
		t.Fatalf("got %q, %v", got, err)
	}
}

// TestSlabGivesBackWhatAReadDidNotFill: a read shorter than the size it
// was given (a file that shrank, a zip entry that claimed more) leaves the
// rest of its buffer to the next one, a failed read all of it, and a
// buffer past a quarter of the next block is not taken from the space at
// all: what a slab from a log's space carves, the log keeps.
func TestSlabGivesBackWhatAReadDidNotFill(t *testing.T) {
	space := &testSpace{}
	s := slab{from: space.block}
	got, err := s.read(bytes.NewReader([]byte("abc")), 100)
	if err != nil || string(got) != "abc" {
		t.Fatalf("read %q, %v", got, err)
	}
	next := s.alloc(5)
	if &next[0] != &space.blocks[0][3] {
		t.Fatal("the next buffer does not start where the short read ended")
	}
	if _, err := s.read(iotest.ErrReader(errors.New("disk gone")), 50); err == nil {
		t.Fatal("a failed read gave no error")
	}
	if again := s.alloc(1); &again[0] != &space.blocks[0][8] {
		t.Fatal("a failed read kept its buffer")
	}
	if big := s.alloc(slabBlock); len(big) != slabBlock || len(space.blocks) != 1 {
		t.Fatalf("a buffer of a whole block came from the space (%d blocks)", len(space.blocks))
	}
}
