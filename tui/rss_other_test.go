//go:build !linux

package tui

// residentBytes is unknown here: 0, and benchmarks report the heap only.
func residentBytes() int64 { return 0 }
