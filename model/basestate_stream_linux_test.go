package model_test

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"ohwatch/gen"
	"ohwatch/model"
)

// BenchmarkReadBaseStateGenerated streams the base_state.json of a
// generated 100k-event conversation (16.6 MB, nearly all of it per-call
// lists), the work BenchmarkDecodeBaseStateGenerated does in memory.
func BenchmarkReadBaseStateGenerated(b *testing.B) {
	raw := gen.BaseState(gen.Options{Events: 100000, Seed: 1})
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.ReadBaseState(bytes.NewReader(raw), 8<<20); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBaseStateBig streams a base state of 1.1 GiB (over the
// gigabyte a base_state.json read whole was once bounded by) and reports
// the process's peak resident memory (rss-peak-MB, VmHWM): the file is
// never held, so the peak is the test binary's and the limit's, whatever
// the size. Run it once per process (-benchtime 1x): the peak is the
// process's.
func BenchmarkReadBaseStateBig(b *testing.B) {
	const size = 1100 << 20
	b.SetBytes(size)
	for b.Loop() {
		if _, err := model.ReadBaseState(bigBaseState(size, 3), 8<<20); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(vmHWM(b))/(1<<20), "rss-peak-MB")
}

// vmHWM is the process's peak resident memory, in bytes.
func vmHWM(b *testing.B) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
