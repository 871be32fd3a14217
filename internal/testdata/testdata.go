// Package testdata locates the real upstream recordings that tests read in
// place, at ../shared/testdata/openhands beside the project root. They are
// never copied into the project.
package testdata

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
