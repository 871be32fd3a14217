//go:build !linux

package reducer

import "time"

// cpuTime falls back to the wall clock where CPU clocks are not read.
func cpuTime() time.Duration { return time.Duration(time.Now().UnixNano()) }

// threadCPUTime falls back to the wall clock.
func threadCPUTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
