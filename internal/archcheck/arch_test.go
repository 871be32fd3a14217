package archcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// unsafeHome are the directories (from the module's root) whose Go files
// may import unsafe: the memory layer, where the arena, aliasing and
// detaching live, so that a stale alias has one place to be looked for.
var unsafeHome = []string{"internal/arena"}

// noImports are imports a package must never have: they would point a
// layer back up.
var noImports = map[string][]string{
	"config": {"ohwatch/tui"},
}

// noEnvUnder are directories whose code must not read the process
// environment itself: the caller reads it once and passes what matters
// (session.Env), so tests run whole screens in-process.
var noEnvUnder = []string{"tui"}

// goFile is one parsed Go file of the module.
type goFile struct {
	dir, path string
	test      bool
	ast       *ast.File
}

// moduleFiles parses every Go file of the module (not testdata, not the
// tools' own modules).
func moduleFiles(t *testing.T) []goFile {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module's root: %v", err)
	}
	var out []goFile
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || name == "tools" && filepath.Dir(path) == root || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out = append(out, goFile{dir: filepath.ToSlash(filepath.Dir(rel)), path: filepath.ToSlash(rel), test: strings.HasSuffix(path, "_test.go"), ast: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("only %d Go files under %s", len(out), root)
	}
	return out
}

func imports(f *ast.File, path string) bool {
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == path {
			return true
		}
	}
	return false
}

func under(dir string, roots []string) bool {
	for _, r := range roots {
		if dir == r || strings.HasPrefix(dir, r+"/") {
			return true
		}
	}
	return false
}

// TestUnsafeOnlyInTheMemoryLayer: no Go file, test or not, imports unsafe
// outside unsafeHome.
func TestUnsafeOnlyInTheMemoryLayer(t *testing.T) {
	for _, f := range moduleFiles(t) {
		if imports(f.ast, "unsafe") && !slices.Contains(unsafeHome, f.dir) {
			t.Errorf("%s imports unsafe: only %v may", f.path, unsafeHome)
		}
	}
}

// TestNoImportBackUp: config is plain data the TUI reads, never the other
// way round.
func TestNoImportBackUp(t *testing.T) {
	for _, f := range moduleFiles(t) {
		for _, p := range noImports[f.dir] {
			if imports(f.ast, p) {
				t.Errorf("%s imports %s", f.path, p)
			}
		}
	}
}

// TestTUIReadsNoEnvironment: the TUI takes what it needs of the
// environment (NO_COLOR, the colour profile, the pager and editor) from its
// caller, who read it once, so a screen draws the same wherever it runs and
// tests need not set variables. No code under tui/ (tests apart) refers
// to an environment reader (envcalls.go), however its package is imported.
func TestTUIReadsNoEnvironment(t *testing.T) {
	checked := 0
	for _, f := range moduleFiles(t) {
		if f.test || !under(f.dir, noEnvUnder) {
			continue
		}
		checked++
		for _, call := range envCalls(f.ast) {
			t.Errorf("%s refers to %s: the caller passes what the environment says", f.path, call.name)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d source files under %s: the walk did not find them", checked, noEnvUnder)
	}
}
