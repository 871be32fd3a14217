//go:build unix

package files

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkLoadReduceVsFloor alternates, in the same rounds, the read
// floor (BenchmarkReadFloor's work) and a load + reduce of the same
// 100k-event directory (BenchmarkLoadReduce's), and reports their ratio
// in wall time (x-floor) and in the process's CPU time (x-floor-cpu):
// alternating keeps a loaded machine's noise out of the ratio, and CPU
// time leaves out the time other processes ran.
func BenchmarkLoadReduceVsFloor(b *testing.B) {
	dir, size := benchConversation(b)
	events := filepath.Join(dir, "events")
	// The 100k files just written are flushed first: the kernel writing
	// them back while the rounds run took CPU from whichever ran then.
	syscall.Sync()
	var floor, load, floorCPU, loadCPU time.Duration
	for b.Loop() {
		t0, c0 := time.Now(), processCPU()
		readFloor(b, events, size)
		t1, c1 := time.Now(), processCPU()
		if log := loadLog(b, dir); log.Len() != benchEvents {
			b.Fatalf("log has %d events", log.Len())
		}
		floor, floorCPU = floor+t1.Sub(t0), floorCPU+c1-c0
		load, loadCPU = load+time.Since(t1), loadCPU+processCPU()-c1
	}
	b.ReportMetric(float64(floor.Milliseconds())/float64(b.N), "floor-ms")
	b.ReportMetric(float64(load.Milliseconds())/float64(b.N), "load-ms")
	b.ReportMetric(float64(load)/float64(floor), "x-floor")
	b.ReportMetric(float64(loadCPU)/float64(floorCPU), "x-floor-cpu")
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
