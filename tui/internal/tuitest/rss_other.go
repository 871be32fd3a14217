//go:build !linux

package tuitest

// ResidentBytes is unknown here: 0, and benchmarks report the heap only.
func ResidentBytes() int64 { return 0 }
