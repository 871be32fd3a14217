package reducer

import (
	"syscall"
	"time"
	"unsafe"
)

// Clock ids of clock_gettime(2).
const (
	clockProcessCPUTime = 2
	clockThreadCPUTime  = 3
)

// clock reads a clock_gettime clock, 0 on error.
func clock(id uintptr) time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// cpuTime is the CPU time this process has used. On a shared machine the
// wall clock counts the time other processes ran too; CPU time does not.
func cpuTime() time.Duration { return clock(clockProcessCPUTime) }

// threadCPUTime is the CPU time of the calling OS thread, in nanoseconds
// (the goroutine must be locked to its thread), to time one operation
// without the time its thread waited for a CPU.
func threadCPUTime() time.Duration { return clock(clockThreadCPUTime) }
