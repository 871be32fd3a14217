package files

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/arena"
	"ohwatch/model"
)

// testSpace hands out heap blocks and remembers them, as a log's space
// would hand out its own.
type testSpace struct {
	mu     sync.Mutex
	blocks [][]byte
}

// block is ReadInto's allocator.
func (s *testSpace) block(n int) []byte {
	b := make([]byte, n)
	s.mu.Lock()
	s.blocks = append(s.blocks, b)
	s.mu.Unlock()
	return b
}

// holding returns the block raw lies in, nil for none.
func (s *testSpace) holding(raw []byte) []byte {
	p := arena.Addr(raw)
	for _, b := range s.blocks {
		lo := arena.Addr(b)
		if p >= lo && p+uintptr(len(raw)) <= lo+uintptr(len(b)) {
			return b
		}
	}
	return nil
}

// streamAll streams path, into space when it is not nil, and returns
// every event.
func streamAll(t *testing.T, path string, space *testSpace) []model.Event {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if space != nil {
		r.ReadInto(space.block)
	}
	var evs []model.Event
	conv, err := r.Stream(context.Background(), func(c Chunk) { evs = append(evs, c.Events...) })
	if err != nil || len(conv.Warnings) != 0 {
		t.Fatalf("%s: %v, warnings %q", path, err, conv.Warnings)
	}
	return evs
}

// TestReadIntoReadsEveryEventIntoTheSpace streams a generated directory
// with a 300 KB event at its end, and the same files zipped, once into a
// space and once not: the same events both ways, and with the space each
// one's bytes in a block it handed out, the blocks growing from 64 KiB to
// 1 MiB, but for the big event, read on the heap (the log copies it).
// JSONL is read as before.
func TestReadIntoReadsEveryEventIntoTheSpace(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "conv")
	const n = 3000
	if err := gen.WriteDir(dir, gen.Options{Events: n, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	big := messageEvent(eventID(n), strings.Repeat("x", 300<<10))
	writeEvent(t, filepath.Join(dir, "events"), n, eventID(n), big)
	zipped := map[string][]byte{}
	var order []string
	names, err := readNames(filepath.Join(dir, "events"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		raw, err := os.ReadFile(filepath.Join(dir, "events", name))
		if err != nil {
			t.Fatal(err)
		}
		zipped["events/"+name] = raw
		order = append(order, "events/"+name)
	}
	for _, path := range []string{dir, writeZip(t, "conv.zip", zipped, order)} {
		want := streamAll(t, path, nil)
		space := &testSpace{}
		got := streamAll(t, path, space)
		if len(got) != n+1 || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %d events read into the space differ from the %d read without", path, len(got), len(want))
		}
		// Each reader goroutine's blocks double from 64 KiB to 1 MiB: how
		// far they got depends on how many goroutines shared the files.
		sizes := map[int]int{}
		largest := 0
		for _, b := range space.blocks {
			sizes[len(b)]++
			largest = max(largest, len(b))
		}
		for size := range sizes {
			if size < slabBlock || size > spaceBlock || size&(size-1) != 0 {
				t.Errorf("%s: blocks by size %v: want 64 KiB to 1 MiB ones, no other", path, sizes)
			}
		}
		if sizes[slabBlock] == 0 || largest == slabBlock {
			t.Errorf("%s: blocks by size %v: want them to start at 64 KiB and grow", path, sizes)
		}
		for i, ev := range got {
			if in := space.holding(ev.Raw) != nil; in != (i < n) {
				t.Fatalf("%s: event %d of %d read into the space: %v", path, i, n+1, in)
			}
		}
	}
}

// TestReadIntoReadsJSONLIntoTheSpace streams a JSONL file whose first
// line (300 KB) is longer than a segment, then 3,000 generated events, into
// a space: every event but the long one, read on in the heap, lies in a
// block of the space, and the blocks hold no more than the file and the
// partial lines carried from one segment to the next: the last is cut to
// what was left of the file. A file that grew after it was measured is
// read to its end, what it grew by in the heap.
func TestReadIntoReadsJSONLIntoTheSpace(t *testing.T) {
	t.Parallel()
	var data bytes.Buffer
	data.Write(messageEvent(eventID(0), strings.Repeat("x", 300<<10)))
	data.WriteByte('\n')
	if err := gen.WriteJSONL(&data, gen.Options{Events: 3000, Seed: 6}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(path, data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	space := &testSpace{}
	got := streamAll(t, path, space)
	if want := streamAll(t, path, nil); len(got) != 3001 || !reflect.DeepEqual(got, want) {
		t.Fatalf("%d events read into the space differ from the %d read without", len(got), len(want))
	}
	// The long line's heap buffer holds the lines after it up to the
	// segment's size too: those few, then all of the rest in the space.
	inHeap := 0
	for i, ev := range got {
		if space.holding(ev.Raw) == nil {
			if i != inHeap {
				t.Fatalf("event %d, after events read into the space, was not", i)
			}
			inHeap++
		}
	}
	if inHeap == 0 || inHeap > 1000 {
		t.Fatalf("%d events of %d read on the heap", inHeap, len(got))
	}
	handed := 0
	for _, b := range space.blocks {
		handed += len(b)
	}
	if handed > data.Len()+64<<10 {
		t.Errorf("the space handed out %d bytes for a file of %d", handed, data.Len())
	}

	grown := &testSpace{}
	var evs []model.Event
	measured := int64(data.Len() / 2)
	err := runOrdered(context.Background(), jsonlJobs(context.Background(), bytes.NewReader(data.Bytes()), "c.jsonl", measured, grown.block), nil,
		func(p part, _ int64) { evs = append(evs, p.Events...) })
	if err != nil || !reflect.DeepEqual(evs, want(t, path)) {
		t.Fatalf("a grown file: %d events, %v", len(evs), err)
	}
	handed = 0
	for _, b := range grown.blocks {
		handed += len(b)
	}
	if int64(handed) > measured+64<<10 {
		t.Errorf("the space handed out %d bytes for a file measured at %d", handed, measured)
	}
}

// want is every event of path, read without a space.
func want(t *testing.T, path string) []model.Event {
	t.Helper()
	return streamAll(t, path, nil)
}
