package reducer

import (
	"runtime"
	"sync"
	"unsafe"
)

// offHeap is the memory a big log keeps its events in outside the Go
// heap: the collector never scans it and, more to the point, never counts
// it. A gigabyte of raw JSON on the heap would let the heap grow by as
// much again between two collections (GOGC=100), and the process's
// resident memory with it; off the heap only the small rest of the log
// is counted.
//
// When the log is collected its blocks' pages are given back to the
// system (madvise DONTNEED) but their addresses stay mapped: a string or
// slice someone kept from an event of a log that is gone reads zeros
// instead of faulting.
type offHeap struct {
	mu     sync.Mutex
	blocks [][]byte
}

// newOffHeap returns an empty arena whose pages are given back when owner
// is collected.
func newOffHeap[T any](owner *T) *offHeap {
	a := &offHeap{}
	runtime.AddCleanup(owner, (*offHeap).release, a)
	return a
}

// bytes returns n zeroed bytes.
func (a *offHeap) bytes(n int) []byte {
	b, ok := mapBlock(n)
	if !ok {
		return make([]byte, n)
	}
	a.mu.Lock()
	a.blocks = append(a.blocks, b)
	a.mu.Unlock()
	return b
}

// records returns n zeroed records.
func (a *offHeap) records(n int) []record {
	size := n * int(unsafe.Sizeof(record{}))
	b, ok := mapBlock(size)
	if !ok {
		return make([]record, n)
	}
	a.mu.Lock()
	a.blocks = append(a.blocks, b)
	a.mu.Unlock()
	return unsafe.Slice((*record)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// release gives the arena's pages back.
func (a *offHeap) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, b := range a.blocks {
		unmapBlock(b)
	}
	a.blocks = nil
}
