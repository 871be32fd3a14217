package session

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"ohwatch/client/files"
	"ohwatch/internal/benchdir"
	"ohwatch/model"
	"ohwatch/reducer"
)

// bigEvents is the size of the conversation BenchmarkOpenBig opens:
// OHWATCH_BENCH_EVENTS, or a million events (1.48 GB of JSON).
func bigEvents(b *testing.B) int {
	if s := os.Getenv("OHWATCH_BENCH_EVENTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("OHWATCH_BENCH_EVENTS=%q", s)
		}
		return n
	}
	return 1_000_000
}

// BenchmarkOpenBig opens a generated million-event JSONL recording as
// `replay` does (the reader streams it into a feed, whose batches are
// appended to the log, then settled as the TUI settles it) and reports the process's resident memory against
// the JSON's bytes: at its peak during the load (VmHWM, rss-peak/json)
// and once loaded (VmRSS, rss/json), with the share of the load's CPU the
// garbage collector took and the heap's part. Then it seeks the open log
// at random events, as the scrubber does, and reports the median and the
// worst seek in wall time and in the seeking thread's CPU time. Run it
// once per process (-benchtime 1x): the peak is the process's.
func BenchmarkOpenBig(b *testing.B) {
	n := bigEvents(b)
	path := benchdir.JSONL(b, n)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	size := float64(info.Size())
	for b.Loop() {
		gc0, cpu0 := gcCPU()
		start := time.Now()
		r, err := files.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		h := r.Header()
		log := reducer.NewLog(h.Base, h.EventFiles)
		r.ReadInto(log.Space().Block) // as Replay reads
		feed := make(chan model.Batch, 4)
		go streamInto(context.Background(), r, feed, nil)
		for batch := range feed {
			log.Append(batch.Events...)
		}
		log.Settle() // as the TUI does when the feed ends
		load := time.Since(start)
		gc1, cpu1 := gcCPU()
		if log.Len() != n {
			b.Fatalf("%d events, want %d", log.Len(), n)
		}
		b.ReportMetric(float64(procStatus(b, "VmHWM"))/size, "rss-peak/json")
		b.ReportMetric(float64(procStatus(b, "VmRSS"))/size, "rss/json")
		b.ReportMetric(load.Seconds(), "load-s")
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapSys-ms.HeapReleased)/size, "heap-held/json")
		b.ReportMetric(float64(ms.NextGC)/size, "heap-goal/json")
		b.ReportMetric(float64(liveHeap())/size, "heap-live/json")
		b.ReportMetric((gc1-gc0)/(cpu1-cpu0), "gc-share")
		median, worst, worstCPU := seekTimes(log, n, 2000)
		b.ReportMetric(float64(median.Microseconds()), "seek-median-µs")
		b.ReportMetric(float64(worst.Microseconds()), "seek-worst-µs")
		b.ReportMetric(float64(worstCPU.Microseconds()), "seek-worst-cpu-µs")
		b.ReportMetric(float64(procStatus(b, "VmRSS"))/size, "rss-after-seeks/json")
		runtime.KeepAlive(log)
	}
}

// seekTimes seeks log at count random events and returns the median and
// the worst wall time of one seek, and the worst in CPU time of the
// seeking thread (what the seek cost, whatever else the machine ran).
func seekTimes(log *reducer.Log, n, count int) (median, worst, worstCPU time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rng := rand.New(rand.NewPCG(1, 2))
	ds := make([]time.Duration, 0, count)
	for range count {
		i := rng.IntN(n)
		t0, c0 := time.Now(), threadCPU()
		s := log.At(i)
		ds = append(ds, time.Since(t0))
		worstCPU = max(worstCPU, threadCPU()-c0)
		runtime.KeepAlive(s)
	}
	slices.Sort(ds)
	return ds[len(ds)/2], ds[len(ds)-1], worstCPU
}

// threadCPU is the CPU time of the calling thread (0 where unknown).
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// gcCPU is the CPU the garbage collector and the whole process have used,
// in seconds, as the runtime counts them.
func gcCPU() (gc, total float64) {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64(), s[1].Value.Float64()
}

// procStatus reads one size field of /proc/self/status, in bytes.
func procStatus(b testing.TB, field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == field {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}
