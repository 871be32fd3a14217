package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// treeOf is every file under dir with its size, for comparing a tree
// before and after a refused command.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, _ := d.Info()
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + " " + info.Mode().String())
		if !d.IsDir() {
			b.WriteString(" " + strconv.FormatInt(info.Size(), 10))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func countEvents(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "events"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "event-") {
			n++
		}
	}
	return n
}

// TestGenRefusesADirectoryThatHoldsAnything: gen into a conversation is
// one line and exit 2, nothing written; --force replaces it whole.
func TestGenRefusesADirectoryThatHoldsAnything(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c1k")
	if code, _, errs := runCmd(t, nil, "gen", dir, "--events", "100"); code != 0 {
		t.Fatalf("first gen: exit %d: %s", code, errs)
	}
	before := treeOf(t, dir)
	code, out, errs := runCmd(t, nil, "gen", dir, "--events", "10")
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "already holds") || !strings.Contains(errs, "--force replaces it whole") {
		t.Fatalf("gen into a conversation: exit %d, out %q, err %q", code, out, errs)
	}
	if treeOf(t, dir) != before {
		t.Fatal("the refused gen wrote something")
	}
	// An empty directory is fine.
	empty := t.TempDir()
	if code, _, errs := runCmd(t, nil, "gen", empty, "--events", "5"); code != 0 || countEvents(t, empty) != 5 {
		t.Fatalf("gen into an empty directory: exit %d: %s", code, errs)
	}
	// --force: exactly the new conversation, nothing of the old left.
	if code, _, errs := runCmd(t, nil, "gen", dir, "--events", "10", "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, errs)
	}
	if n := countEvents(t, dir); n != 10 {
		t.Fatalf("--force left %d event files, want 10", n)
	}
	siblings, _ := os.ReadDir(filepath.Dir(dir))
	if len(siblings) != 1 {
		t.Fatalf("--force left files beside DIR: %v", siblings)
	}
	// --force replaces only what gen could have written.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	code, _, errs = runCmd(t, nil, "gen", other, "--events", "5", "--force")
	if code != 2 || !strings.Contains(errs, "--force replaces only a conversation") {
		t.Fatalf("--force on other files: exit %d, %q", code, errs)
	}
	if b, err := os.ReadFile(filepath.Join(other, "notes.txt")); err != nil || string(b) != "mine" {
		t.Fatal("--force touched other files")
	}
	// A root of forks, and a JSONL file, the same.
	root := filepath.Join(t.TempDir(), "root")
	if code, _, errs := runCmd(t, nil, "gen", root, "--events", "50", "--forks", "1"); code != 0 {
		t.Fatalf("root: exit %d: %s", code, errs)
	}
	if code, _, _ := runCmd(t, nil, "gen", root, "--events", "50", "--forks", "2"); code != 2 {
		t.Fatalf("gen into a root: exit %d", code)
	}
	if code, out, errs := runCmd(t, nil, "gen", root, "--events", "50", "--forks", "2", "--force"); code != 0 || !strings.Contains(out, "a fork of it") {
		t.Fatalf("root --force: exit %d: %s %s", code, out, errs)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 3 {
		t.Fatalf("root --force holds %d conversations, want 3", len(entries))
	}
	file := filepath.Join(t.TempDir(), "c.jsonl")
	runCmd(t, nil, "gen", file, "--events", "20", "--jsonl")
	size := func() int64 { info, _ := os.Stat(file); return info.Size() }
	was := size()
	if code, _, errs := runCmd(t, nil, "gen", file, "--events", "5", "--jsonl"); code != 2 || size() != was || !strings.Contains(errs, "already exists") {
		t.Fatalf("gen over a JSONL file: exit %d, %q", code, errs)
	}
	if code, _, _ := runCmd(t, nil, "gen", file, "--events", "5", "--jsonl", "--force"); code != 0 || size() >= was {
		t.Fatalf("--force over a JSONL file: exit %d, size %d (was %d)", code, size(), was)
	}
}
