//go:build unix

package cli

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used (user and system). On a
// shared machine the wall clock counts the time other processes ran too;
// CPU time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
