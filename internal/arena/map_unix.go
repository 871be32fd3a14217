//go:build unix

package arena

import "golang.org/x/sys/unix"

// mapBlock maps n bytes of anonymous memory, zeroed, outside the Go heap;
// ok is false when the system refuses (the caller uses the heap). The
// pages are made at once (mapPopulate where the system has it): a block
// is filled right away, and one call costs less than a fault per page.
// It uses x/sys/unix, not syscall, whose Madvise is Linux's alone: this
// builds on every Unix a release ships (darwin, freebsd, linux).
func mapBlock(n int) (b []byte, ok bool) {
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE|mapPopulate)
	return b, err == nil
}

// unmapBlock gives a block's pages back to the system, keeping its
// addresses mapped (they read as zeros from then on on Linux; elsewhere
// MADV_DONTNEED lets the system take them back when it needs them).
func unmapBlock(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }

// freeBlock unmaps a block: its addresses fault from then on.
func freeBlock(b []byte) { _ = unix.Munmap(b) }
