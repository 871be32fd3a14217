package reducer

import (
	"time"

	"golang.org/x/sys/unix"
)

// Clock ids of clock_gettime(2).
const (
	clockProcessCPUTime = unix.CLOCK_PROCESS_CPUTIME_ID
	clockThreadCPUTime  = unix.CLOCK_THREAD_CPUTIME_ID
)

// clock reads a clock_gettime clock, 0 on error.
func clock(id int32) time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(id, &ts) != nil {
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
