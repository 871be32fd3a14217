// Package upstream locates the real upstream recordings that tests read in
// place, at ../shared/testdata/openhands beside the project root. They are
// never copied into the project, so a bare clone does not have them: tests
// that need them skip there, with one line saying what is missing, and CI
// (which sets OHWATCH_UPSTREAM_REQUIRED=1) fails instead of skipping.
package upstream

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"ohwatch/internal/modroot"
)

// RequiredEnv names the variable that turns a missing recordings directory
// from a skip into a failure: CI sets it so that it never silently runs
// less than the whole suite.
const RequiredEnv = "OHWATCH_UPSTREAM_REQUIRED"

// SkipMessage is the one line a test skips with when the recordings are
// not beside the checkout.
const SkipMessage = "../shared/testdata/openhands not found: upstream-recording tests skipped"

// locate finds ../shared/testdata/openhands once per test binary.
var locate = sync.OnceValues(func() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return find(wd)
})

// find walks up from wd to the module root and returns the recordings
// directory beside it, or why there is none.
func find(wd string) (string, error) {
	root, err := modroot.From(wd)
	if err != nil {
		return "", err
	}
	td := filepath.Join(filepath.Dir(root), "shared", "testdata", "openhands")
	if _, err := os.Stat(td); err != nil {
		return "", fmt.Errorf("%s is missing: %w", td, err)
	}
	return td, nil
}

// required reports whether a missing recordings directory must fail.
func required() bool { return os.Getenv(RequiredEnv) == "1" }

// Dir returns the absolute path of ../shared/testdata/openhands. When the
// directory is missing it skips the test with SkipMessage, or fails it
// when OHWATCH_UPSTREAM_REQUIRED=1.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := locate()
	return orSkip(tb, dir, err)
}

// orSkip returns dir, or ends the test when err says it is missing.
func orSkip(tb testing.TB, dir string, err error) string {
	tb.Helper()
	if err != nil {
		if required() {
			tb.Fatalf("testdata: %v (%s=1)", err, RequiredEnv)
		}
		tb.Skip(SkipMessage)
	}
	return dir
}

// Present reports whether the recordings are beside the checkout, failing
// tb when they are not and OHWATCH_UPSTREAM_REQUIRED=1. Fuzz targets use it
// to add the recordings to their seeds when they can, and still run on
// their own seeds on a bare clone, where Dir would skip the whole target.
func Present(tb testing.TB) bool {
	tb.Helper()
	_, err := locate()
	if err != nil && required() {
		tb.Fatalf("testdata: %v (%s=1)", err, RequiredEnv)
	}
	return err == nil
}

// Trajectories returns the recorded conversation directories (each holding
// events/), sorted by name.
func Trajectories(tb testing.TB) []string {
	tb.Helper()
	root := filepath.Join(Dir(tb), "trajectories")
	entries, err := os.ReadDir(root)
	if err != nil {
		tb.Fatalf("testdata: %v", err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	sort.Strings(dirs)
	return dirs
}

// EventFiles returns the raw bytes of every events/event-NNNNN-<id>.json of
// a recorded conversation directory, in index order (the zero-padded index
// sorts by name). It hands back bytes rather than decoded events so that
// the model package's own tests can use it without an import cycle. It
// fails the test when the directory holds no event file.
func EventFiles(tb testing.TB, dir string) [][]byte {
	tb.Helper()
	names := EventPaths(tb, dir)
	raws := make([][]byte, 0, len(names))
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			tb.Fatalf("testdata: %v", err)
		}
		raws = append(raws, raw)
	}
	return raws
}

// EventPaths returns the paths of a recorded conversation's event files
// (events/event-*.json below dir), in index order. It fails the test when
// there are none: a recording without events is a broken fixture.
func EventPaths(tb testing.TB, dir string) []string {
	tb.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "events", "event-*.json"))
	if err != nil {
		tb.Fatalf("testdata: %v", err)
	}
	if len(names) == 0 {
		tb.Fatalf("testdata: no events/event-*.json in %s", dir)
	}
	sort.Strings(names)
	return names
}
