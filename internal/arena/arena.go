package arena

import (
	"runtime"
	"sync"
	"unsafe"
)

// Arena is the memory a big log keeps its events in outside the Go heap:
// the collector never scans it and, more to the point, never counts it. A
// gigabyte of raw JSON on the heap would let the heap grow by as much
// again between two collections (GOGC=100), and the process's resident
// memory with it; off the heap only the small rest of the log is counted.
//
// When the owner is collected its blocks go to a pool the next big log
// takes them from (up to poolCap bytes): on a virtual machine a page
// touched for the first time costs tens of microseconds, as much as
// copying the whole event into it many times over. Past the cap their
// pages are given back to the system (madvise DONTNEED). Either way the
// addresses stay mapped (but under -tags arenadebug, see debugUnmap).
// Reuse is safe because nothing the owner hands out to keep points into a
// block (reducer.Log says how it makes sure).
type Arena struct {
	mu     sync.Mutex
	blocks [][]byte
}

// New returns an empty arena whose blocks are released when owner is
// collected.
func New[T any](owner *T) *Arena {
	a := &Arena{}
	runtime.AddCleanup(owner, (*Arena).release, a)
	return a
}

// poolCap is how many bytes of blocks the pool keeps for reuse.
const poolCap = 512 << 20

// pool holds the blocks of collected arenas, by size.
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
func (a *Arena) block(n int) ([]byte, bool) {
	b, ok := reuse(n)
	if !ok {
		b, ok = mapBlock(n)
	}
	return b, ok
}

// Bytes returns n bytes (their contents are not read before written):
// from the arena, or from the heap where the system maps none.
func (a *Arena) Bytes(n int) []byte {
	b, ok := a.block(n)
	if !ok {
		return make([]byte, n)
	}
	a.mu.Lock()
	a.blocks = append(a.blocks, b)
	a.mu.Unlock()
	return b
}

// Make returns n zeroed values of T from a (from the heap where the
// system maps none). T must hold no pointers: the collector does not see
// into the arena.
func Make[T any](a *Arena, n int) []T {
	var zero T
	b, ok := a.block(n * int(unsafe.Sizeof(zero)))
	if !ok {
		return make([]T, n)
	}
	clear(b)
	a.mu.Lock()
	a.blocks = append(a.blocks, b)
	a.mu.Unlock()
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// NumBlocks is how many blocks the arena holds.
func (a *Arena) NumBlocks() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.blocks)
}

// release pools the arena's blocks, or gives their pages back; under
// debugUnmap it unmaps them.
func (a *Arena) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	pool.Lock()
	defer pool.Unlock()
	for _, b := range a.blocks {
		if debugUnmap {
			freeBlock(b)
			continue
		}
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
