//go:build !unix

package files

import "os"

// openNoBlock opens path for reading; systems without FIFOs in the file
// system cannot block on open.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
