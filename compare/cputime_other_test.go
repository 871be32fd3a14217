//go:build !linux

package compare

import "time"

// threadCPU is unavailable here: 0, and benchmarks report wall time only.
func threadCPU() time.Duration { return 0 }

// lockThread does nothing where threadCPU is unavailable.
func lockThread() func() { return func() {} }
