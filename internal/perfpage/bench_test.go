package main

import (
	"strings"
	"testing"
)

// sample is benchmark output as `go test -bench` prints it on 2 CPUs:
// names with the -2 suffix (a sub-benchmark's own name ending in digits
// too), -count runs, b.ReportMetric units, and with -v a name on a line
// of its own with a log line before its figures.
const sample = `goos: linux
goarch: amd64
pkg: ohwatch/client/files
cpu: Intel(R) Xeon(R) CPU
BenchmarkReadFloor-2   	       3	 357123456 ns/op	 460.00 MB/s
BenchmarkReadFloor-2   	       3	 360000000 ns/op	 455.00 MB/s
BenchmarkLoadReduce-2  	       3	 617000000 ns/op	 266.00 MB/s
BenchmarkLoadReduce-2  	       3	 640000000 ns/op	 256.00 MB/s
BenchmarkHeldBehindAMissingParent/1000-2         	      20	   1312345 ns/op	      1312 ns/event	  123 B/op	       2 allocs/op
BenchmarkHeldBehindAMissingParent/10000-2        	      20	  18000000 ns/op	      1799 ns/event	  456 B/op	       3 allocs/op
BenchmarkView/1000/TrueColor-2 	    1000	    734000 ns/op
BenchmarkView/1000/ANSI256-2   	    1000	    620000 ns/op
BenchmarkView/1000000/TrueColor-2 	    1000	    810000 ns/op
BenchmarkView/1000000/ANSI256-2   	    1000	    700000 ns/op
BenchmarkBackendDown
    bench_test.go:321: heap 12 MB before; 13 / 13 / 13 / 14 MB at each quarter; 1 spans ended, 0 sent, 1 dropped
BenchmarkBackendDown-2   	       1	5000000000 ns/op	         1.500 MB-growth
BenchmarkFleetOpenAndLeave-2 	      20	  1000 ns/op	        -0.01000 retained-MB	  25.0 retained-rss-MB	         1.000 screens
PASS
ok  	ohwatch/client/files	12.3s
`

func parsed(t *testing.T) *results {
	t.Helper()
	r, err := parseBench(strings.NewReader(sample), 2)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// rule is the cell rule of the row whose figure starts with prefix.
func rule(t *testing.T, prefix string) func(*results) string {
	t.Helper()
	for _, rw := range allRows() {
		if strings.HasPrefix(rw.figure, prefix) {
			return rw.cell
		}
	}
	t.Fatalf("no row %q", prefix)
	return nil
}

func TestParseBench(t *testing.T) {
	r := parsed(t)
	if got := r.vals("BenchmarkHeldBehindAMissingParent/10000", "ns/event"); len(got) != 1 || got[0] != 1799 {
		t.Errorf("ns/event of a sub-benchmark named with digits: %v", got)
	}
	if got := r.vals("BenchmarkReadFloor", "ns/op"); len(got) != 2 {
		t.Errorf("two runs of -count, got %v", got)
	}
	if got := r.vals("BenchmarkBackendDown", "MB-growth"); len(got) != 1 || got[0] != 1.5 {
		t.Errorf("figures after a log line under -v: %v", got)
	}
	if got := r.vals("BenchmarkFleetOpenAndLeave", "iters"); len(got) != 1 || got[0] != 20 {
		t.Errorf("iterations: %v", got)
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.subs("BenchmarkView"); len(got) != 0 {
		t.Errorf("subs reaches only the level below: %v", got)
	}
	r.err = nil
	r.vals("BenchmarkNothing", "ns/op")
	if r.err == nil || !strings.Contains(r.err.Error(), "BenchmarkNothing") {
		t.Errorf("a missing benchmark is an error naming it, got %v", r.err)
	}
}

func TestCells(t *testing.T) {
	for _, c := range []struct{ row, want string }{
		{"load + reduce a 100k-event SDK directory", "617-640 ms vs 357-360 ms: **1.75x**"},
		{"events held behind a missing parent", "**1.3 µs** an event with 1,000 held, **1.8 µs** with 10,000"},
		{"`View()` of the main screen", "1k: **0.73 / 0.62 ms**; 1M: 0.81 / 0.70 ms"},
		{"backend down", "the heap grew **2 MB** over the run"},
		{"fleet table: a conversation of 10k events opened", "**-0.01 MB** held and 1 screen alive"},
		{"the same, resident memory", "**25 MB** resident after 20 conversations opened and left"},
	} {
		r := parsed(t)
		got := rule(t, c.row)(r)
		if r.err != nil {
			t.Errorf("%s: %v", c.row, r.err)
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.row, got, c.want)
		}
	}
}

// A rule that reads a metric the output lacks fails instead of writing
// a cell.
func TestCellMissingMetric(t *testing.T) {
	r := parsed(t)
	rule(t, "the same events from JSONL")(r)
	if r.err == nil {
		t.Error("a row without its benchmark's output gave a cell")
	}
}

func TestSpan(t *testing.T) {
	for _, c := range []struct {
		vs   []float64
		f    format
		want string
	}{
		{[]float64{530.2, 558.9, 540}, num(0, 1), "530-559"},
		{[]float64{1.131, 1.1349}, num(2, 1), "1.13"},
		{[]float64{734000}, sig(1e6), "0.73"},
		{[]float64{3.41e6}, sig(1e6), "3.4"},
		{[]float64{149e6}, sig(1e6), "149"},
		{nil, sig(1), "?"},
	} {
		if got := spanOf(c.vs, c.f); got != c.want {
			t.Errorf("spanOf(%v) = %q, want %q", c.vs, got, c.want)
		}
	}
}
