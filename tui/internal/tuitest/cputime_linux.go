package tuitest

import (
	"runtime"
	"syscall"
	"time"
)

// ThreadCPU is the CPU time the calling OS thread has used: on a loaded
// machine it counts the work, not the waiting for a core. The caller
// locks its goroutine to the thread.
func ThreadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// LockThread pins the benchmark's goroutine to its thread for threadCPU.
func LockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
