package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// genTarget is where gen writes: the path asked for when it is new or an
// empty directory, else (with --force) a fresh sibling that replaces the
// path whole once it is complete, so a conversation is never merged into
// another and a failed write leaves the old one as it was.
type genTarget struct {
	path  string // what the user named
	write string // where the writer writes
}

// errTargetTaken is a target that holds something and was not --force'd.
var errTargetTaken = errors.New("target taken")

// prepareGenTarget checks path for gen. jsonl: path is a file.
func prepareGenTarget(path string, jsonl, force bool) (genTarget, error) {
	t := genTarget{path: path, write: path}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return t, nil
	case err != nil:
		return t, err
	}
	if jsonl {
		if info.IsDir() {
			return t, fmt.Errorf("%w: %s is a directory; --jsonl writes one file", errTargetTaken, path)
		}
		if info.Size() == 0 {
			return t, nil
		}
		if !force {
			return t, fmt.Errorf("%w: %s already exists (%d bytes); gen writes only a new file, --force replaces it whole", errTargetTaken, path, info.Size())
		}
		f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".gen-*")
		if err != nil {
			return t, err
		}
		t.write = f.Name()
		return t, f.Close()
	}
	if !info.IsDir() {
		return t, fmt.Errorf("%w: %s is a file, not a directory", errTargetTaken, path)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return t, err
	}
	if len(entries) == 0 {
		return t, nil
	}
	if !force {
		return t, fmt.Errorf("%w: %s already holds %d entries (%s…); gen writes only into a new or empty directory, --force replaces it whole", errTargetTaken, path, len(entries), entries[0].Name())
	}
	if !isRecording(path, entries) {
		return t, fmt.Errorf("%w: --force replaces only a conversation or a root of them, and %s holds other files (%s…)", errTargetTaken, path, entries[0].Name())
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".gen-*")
	if err != nil {
		return t, err
	}
	t.write = dir
	return t, nil
}

// isRecording reports whether dir, holding entries, is a conversation (its
// base_state.json or events/) or a root of them: what gen --force may
// replace, so a mistyped path never removes anything else.
func isRecording(dir string, entries []fs.DirEntry) bool {
	conv := func(entries []fs.DirEntry) bool {
		for _, e := range entries {
			if e.Name() == "base_state.json" || (e.Name() == "events" && e.IsDir()) {
				return true
			}
		}
		return false
	}
	if conv(entries) {
		return true
	}
	for _, e := range entries {
		if !e.IsDir() {
			return false
		}
		sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
		if err != nil || !conv(sub) {
			return false
		}
	}
	return true
}

// commit puts a complete write in place of the path it replaces; the old
// content goes only once the new one is there.
func (t genTarget) commit() error {
	if t.write == t.path {
		return nil
	}
	info, err := os.Stat(t.write)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return os.Rename(t.write, t.path) // a file is replaced in one step
	}
	old, err := os.MkdirTemp(filepath.Dir(t.path), "."+filepath.Base(t.path)+".old-*")
	if err != nil {
		return err
	}
	aside := filepath.Join(old, "replaced")
	if err := os.Rename(t.path, aside); err != nil {
		os.Remove(old)
		return err
	}
	if err := os.Rename(t.write, t.path); err != nil {
		_ = os.Rename(aside, t.path)
		os.Remove(old)
		return err
	}
	return os.RemoveAll(old)
}

// abandon removes a write that failed; the path is as it was.
func (t genTarget) abandon() {
	if t.write != t.path {
		os.RemoveAll(t.write)
	}
}
