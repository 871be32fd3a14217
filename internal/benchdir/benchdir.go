// Package benchdir holds the generated recordings the benchmarks of more
// than one package replay, written once per machine.
package benchdir

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"ohwatch/gen"
)

// Events is the size of the recording the replay benchmarks read: the
// product promises a first screen within 300 ms at this size, with the
// rest loading behind it.
const Events = 100_000

// Dir returns a generated SDK conversation directory of n events, written
// once and kept under os.TempDir() across runs: writing 100k files takes
// seconds, reading them is what is measured. A marker file written after
// the directory is complete tells a finished directory from one whose
// writing was interrupted.
func Dir(tb testing.TB, n int) string {
	tb.Helper()
	dir := filepath.Join(os.TempDir(), "ohwatch-replay-bench-"+strconv.Itoa(n)+"-1")
	done := dir + ".done"
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	tb.Logf("generating %d events into %s (once)", n, dir)
	if err := os.RemoveAll(dir); err != nil {
		tb.Fatal(err)
	}
	if err := gen.WriteDir(dir, gen.Options{Events: n, Seed: 1}); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// JSONL returns a generated conversation of n events as one JSONL file,
// written once and kept under os.TempDir() like Dir: a million events are
// 1.4 GB, written in about a minute.
func JSONL(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(os.TempDir(), "ohwatch-bench-"+strconv.Itoa(n)+"-1.jsonl")
	done := path + ".done"
	if _, err := os.Stat(done); err == nil {
		return path
	}
	tb.Logf("generating %d events into %s (once)", n, path)
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = gen.WriteJSONL(w, gen.Options{Events: n, Seed: 1})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}
