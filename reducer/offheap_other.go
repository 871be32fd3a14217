//go:build !unix

package reducer

// mapBlock is unavailable here: the log keeps its blocks on the heap.
func mapBlock(int) ([]byte, bool) { return nil, false }

// unmapBlock has nothing to give back.
func unmapBlock([]byte) {}
