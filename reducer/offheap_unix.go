//go:build unix

package reducer

import "syscall"

// mapBlock maps n bytes of anonymous memory, zeroed, outside the Go heap;
// ok is false when the system refuses (the caller uses the heap). The
// pages are made at once (mapPopulate where the system has it): a block
// is filled right away, and one call costs less than a fault per page.
func mapBlock(n int) (b []byte, ok bool) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|mapPopulate)
	return b, err == nil
}

// unmapBlock gives a block's pages back to the system, keeping its
// addresses mapped (they read as zeros from then on).
func unmapBlock(b []byte) { _ = syscall.Madvise(b, syscall.MADV_DONTNEED) }
