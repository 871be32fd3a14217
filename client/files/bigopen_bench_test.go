package files

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

	"ohwatch/internal/benchdir"
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
// `replay` does (the reader streams it in chunks, each appended to the
// log) and reports the process's resident memory against the JSON's
// bytes: at its peak during the load (VmHWM, rss-peak/json) and once
// loaded (VmRSS, rss/json), with the share of the load's CPU the garbage
// collector took. Then it seeks the open log at random events, as the
// scrubber does, and reports the median and the worst seek. Run it once
// per process (-benchtime 1x): the peak is the process's.
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
		r, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		h := r.Header()
		log := reducer.NewLog(h.Base, h.EventFiles)
		if _, err := r.Stream(context.Background(), func(c Chunk) { log.Append(c.Events...) }); err != nil {
			b.Fatal(err)
		}
		r.Close()
		load := time.Since(start)
		gc1, cpu1 := gcCPU()
		if log.Len() != n {
			b.Fatalf("%d events, want %d", log.Len(), n)
		}
		b.ReportMetric(float64(procStatus(b, "VmHWM"))/size, "rss-peak/json")
		b.ReportMetric(float64(procStatus(b, "VmRSS"))/size, "rss/json")
		b.ReportMetric(load.Seconds(), "load-s")
		b.ReportMetric((gc1-gc0)/(cpu1-cpu0), "gc-share")
		median, worst := seekTimes(log, n, 2000)
		b.ReportMetric(float64(median.Microseconds()), "seek-median-µs")
		b.ReportMetric(float64(worst.Microseconds()), "seek-worst-µs")
		b.ReportMetric(float64(procStatus(b, "VmRSS"))/size, "rss-after-seeks/json")
		runtime.KeepAlive(log)
	}
}

// seekTimes seeks log at count random events and returns the median and
// the worst wall time of one seek.
func seekTimes(log *reducer.Log, n, count int) (median, worst time.Duration) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := make([]time.Duration, 0, count)
	for range count {
		i := rng.IntN(n)
		t0 := time.Now()
		s := log.At(i)
		ds = append(ds, time.Since(t0))
		runtime.KeepAlive(s)
	}
	slices.Sort(ds)
	return ds[len(ds)/2], ds[len(ds)-1]
}

// gcCPU is the CPU the garbage collector and the whole process have used,
// in seconds, as the runtime counts them.
func gcCPU() (gc, total float64) {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64(), s[1].Value.Float64()
}

// procStatus reads one size field of /proc/self/status, in bytes.
func procStatus(b *testing.B, field string) int64 {
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
