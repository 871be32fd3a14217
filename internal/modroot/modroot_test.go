package modroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFromFindsTheNearestGoModAbove(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := From(deep); err == nil || !strings.Contains(err.Error(), "no go.mod above "+deep) {
		t.Fatalf("no go.mod anywhere: err %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := From(deep); err != nil || got != filepath.Join(root, "a") {
		t.Fatalf("From(%s) = %q, %v; want %s", deep, got, err, filepath.Join(root, "a"))
	}
}

func TestFindIsThisModulesRoot(t *testing.T) {
	got, err := Find()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(got, "internal", "modroot", "modroot.go")); err != nil {
		t.Fatalf("Find() = %s, which does not hold this package: %v", got, err)
	}
}
