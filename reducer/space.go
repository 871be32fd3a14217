package reducer

import (
	"cmp"
	"slices"
	"sync"

	"ohwatch/internal/arena"
)

// A loader read each event file into a buffer of its own and the log
// copied the bytes into its blocks: two copies of a recording's JSON, and
// a heap's worth of read buffers for the collector to chase. A Space hands
// out the log's blocks themselves: the loader reads into them, and an
// event whose raw bytes lie in one is kept where it was read (store.adopt).

// Space is memory a reader reads events into for one log. It is safe for
// concurrent use by the reader's goroutines while the log is appended to.
//
// The memory is the log's: it lives as long as the log and, once the log
// is big, lies outside the Go heap. Whoever is handed an event read into
// it must keep nothing of that event (its Raw, a string decoded from it)
// past the log's life; the log itself keeps copies of what its States
// hold, as it does of any event.
type Space struct {
	arena *arena.Arena
	mu    sync.Mutex
	// handed is how many bytes were handed out: blocks come from the heap
	// until the log is big, as the store's own do.
	handed int
	// pending are the blocks handed out that no appended event was found
	// in yet.
	pending [][]byte
}

// Space returns the log's space, made on first use.
func (l *Log) Space() *Space {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.st.space == nil {
		l.st.space = &Space{arena: l.st.mem()}
	}
	return l.st.space
}

// Block returns a block of n bytes for a reader to fill. Its contents are
// not zeroed.
func (sp *Space) Block(n int) []byte {
	sp.mu.Lock()
	small := sp.handed < offHeapFrom
	sp.handed += n
	sp.mu.Unlock()
	var b []byte
	if small {
		b = make([]byte, n)
	} else {
		b = sp.arena.Bytes(n)
	}
	sp.mu.Lock()
	sp.pending = append(sp.pending, b)
	sp.mu.Unlock()
	return b
}

// take removes from pending the block raw lies in and returns it.
func (sp *Space) take(raw []byte) ([]byte, uint32, bool) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for k, b := range sp.pending {
		if off, ok := within(b, raw); ok {
			sp.pending = append(sp.pending[:k], sp.pending[k+1:]...)
			return b, off, true
		}
	}
	return nil, 0, false
}

// within reports whether raw lies wholly inside b, and where.
func within(b, raw []byte) (uint32, bool) { return arena.Within(b, raw) }

// spaceBlock is one of the space's blocks among the store's: where it
// starts, and its index in the store's blocks.
type spaceBlock struct {
	lo    uintptr
	index int
}

// adopt finds raw in the space's blocks and returns where it lies, the
// block becoming one of the store's when it is the first event found in
// it. An event read elsewhere (a placeholder, a redacted copy) is not
// found, and is copied.
func (s *store) adopt(raw []byte) (block, off uint32, ok bool) {
	if s.space == nil || len(raw) == 0 {
		return 0, 0, false
	}
	// The events come in the order they were read: nearly always from
	// the block the last one was found in.
	if s.lastAdopted > 0 {
		if off, ok := within(s.blocks[s.lastAdopted-1], raw); ok {
			return uint32(s.lastAdopted - 1), off, true
		}
	}
	p := arena.Addr(raw)
	k, _ := slices.BinarySearchFunc(s.adopted, p, func(b spaceBlock, p uintptr) int { return cmp.Compare(b.lo, p+1) })
	if k > 0 {
		if off, ok := within(s.blocks[s.adopted[k-1].index], raw); ok {
			s.lastAdopted = s.adopted[k-1].index + 1
			return uint32(s.adopted[k-1].index), off, true
		}
	}
	b, off, ok := s.space.take(raw)
	if !ok {
		return 0, 0, false
	}
	s.blocks = append(s.blocks, b)
	lo := arena.Addr(b)
	s.adopted = slices.Insert(s.adopted, k, spaceBlock{lo: lo, index: len(s.blocks) - 1})
	s.lastAdopted = len(s.blocks)
	return uint32(len(s.blocks) - 1), off, true
}
