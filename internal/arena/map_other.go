//go:build !unix

package arena

// mapBlock is unavailable here: an arena's owner keeps its blocks on
// the heap.
func mapBlock(int) ([]byte, bool) { return nil, false }

// unmapBlock has nothing to give back.
func unmapBlock([]byte) {}

// freeBlock has no mapping to undo.
func freeBlock([]byte) {}
