// Package upstream locates the real upstream recordings that tests read in
// place, at ../shared/testdata/openhands beside the project root. They are
// never copied into the project.
package upstream

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Dir returns the absolute path of ../shared/testdata/openhands, found by
// walking up from the working directory to the module root. It fails the
// test when the directory is missing: CI always has it.
func Dir(tb testing.TB) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatalf("testdata: %v", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			td := filepath.Join(filepath.Dir(dir), "shared", "testdata", "openhands")
			if _, err := os.Stat(td); err != nil {
				tb.Fatalf("testdata: %s is missing: %v", td, err)
			}
			return td
		}
		if filepath.Dir(dir) == dir {
			tb.Fatalf("testdata: no go.mod above %s", wd)
		}
	}
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
