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
// When the log is collected its blocks go to a pool the next big log
// takes them from (up to poolCap bytes): on a virtual machine a page
// touched for the first time costs tens of microseconds, as much as
// copying the whole event into it many times over. Past the cap their
// pages are given back to the system (madvise DONTNEED). Either way the
// addresses stay mapped. Reuse is safe because nothing the log hands out
// to keep points into a block: an event is decoded from a heap copy of its
// bytes, one kept as appended has its Raw copied when it is handed out,
// and a walk lends its events' bytes only while the walk runs, keeping
// the log alive until it ends (Log.Walk). Events a reader read into the
// log's Space lie in these blocks from the start: their readers keep
// nothing of them past the log (see Space).
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

// poolCap is how many bytes of blocks the pool keeps for reuse.
const poolCap = 512 << 20

// pool holds the blocks of collected logs, by size.
var pool struct {
	sync.Mutex
	free  map[int][][]byte
	bytes int
}

// reuse takes a pooled block of n bytes, if there is one.
func reuse(n int) ([]byte, bool) {
	pool.Lock()
	defer pool.Unlock()
	list := pool.free[n]
	if len(list) == 0 {
		return nil, false
	}
	b := list[len(list)-1]
	pool.free[n] = list[:len(list)-1]
	pool.bytes -= n
	return b, true
}

// block returns a block of n bytes, not necessarily zeroed: pooled, or
// newly mapped.
func (a *offHeap) block(n int) ([]byte, bool) {
	b, ok := reuse(n)
	if !ok {
		b, ok = mapBlock(n)
	}
	return b, ok
}

// bytes returns n bytes (their contents are not read before written).
func (a *offHeap) bytes(n int) []byte {
	b, ok := a.block(n)
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
	b, ok := a.block(size)
	if !ok {
		return make([]record, n)
	}
	clear(b)
	a.mu.Lock()
	a.blocks = append(a.blocks, b)
	a.mu.Unlock()
	return unsafe.Slice((*record)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// release pools the arena's blocks, or gives their pages back.
func (a *offHeap) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	pool.Lock()
	defer pool.Unlock()
	for _, b := range a.blocks {
		if pool.bytes+len(b) > poolCap {
			unmapBlock(b)
			continue
		}
		if pool.free == nil {
			pool.free = make(map[int][][]byte)
		}
		pool.free[len(b)] = append(pool.free[len(b)], b)
		pool.bytes += len(b)
	}
	a.blocks = nil
}
