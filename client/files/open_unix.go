//go:build unix

package files

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without ever waiting: O_NONBLOCK
// makes opening a FIFO return at once instead of blocking until a writer
// appears, and does nothing to a regular file or a directory. The caller
// still checks what it opened.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openatNoBlock is the flag set for openat of one event file (see
// openNoBlock).
const openatNoBlock = syscall.O_NONBLOCK
