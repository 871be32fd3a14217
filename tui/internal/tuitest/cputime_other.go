//go:build !linux

package tuitest

import "time"

// ThreadCPU is unavailable here: 0, and benchmarks report wall time only.
func ThreadCPU() time.Duration { return 0 }

// LockThread does nothing where ThreadCPU is unavailable.
func LockThread() func() { return func() {} }
