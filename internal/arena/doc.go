// Package arena is ohwatch's memory layer, the one package that imports
// unsafe: the anonymous mmap blocks a big event log keeps its events in
// outside the Go heap (Arena), and the views that alias memory without
// copying it (String, Bytes) or compare where it lies (Addr, Within).
// Keeping them in one room means a stale alias has one place to be looked
// for; built with -tags arenadebug, released blocks are unmapped, so any
// alias that outlives its arena crashes the test that made it.
//
// # In detail
//
// The memory layer: an mmap arena for a big log's off-heap blocks (a normal
// build pools them up to 512 MB or gives their pages back; where the system
// offers no anonymous mmap, Windows, the Go heap) and the views that alias
// it.
//
// The only package that imports `unsafe`.
//
// `-tags arenadebug` unmaps a block as soon as its log is collected, so a
// string or slice that outlived its log crashes where it is read.
//
// It imports `x/sys/unix`; nothing of the project.
package arena
