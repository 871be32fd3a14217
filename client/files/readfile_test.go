package files

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
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
