package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// envReaders are the calls that read the process environment, by package.
var envReaders = map[string][]string{
	"os":      {"Getenv", "Environ", "LookupEnv"},
	"syscall": {"Getenv", "Environ"},
}

// TestNothingUnderTUIReadsTheEnvironment: the TUI takes what it needs of
// the environment (NO_COLOR, the colour profile, the pager and editor)
// from its caller, who read it once, so a screen draws the same wherever
// it runs and tests need not set variables. A non-test file under tui/
// that calls os.Getenv, os.Environ or os.LookupEnv fails this.
func TestNothingUnderTUIReadsTheEnvironment(t *testing.T) {
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		found++
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, call := range envCalls(f) {
			t.Errorf("%s: %s reads the environment; take it from the caller", fset.Position(call.Pos()), call.name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 10 {
		t.Fatalf("only %d source files under tui/: the walk did not find the package", found)
	}
}

// envCall is one call of an environment reader, as written.
type envCall struct {
	ast.Node
	name string
}

// envCalls lists f's references to an environment reader, whatever name
// its package is imported under (a reference passed as a value counts as
// a call: os.Environ handed to a detector reads the environment too).
func envCalls(f *ast.File) []envCall {
	local := map[string]string{} // local name → import path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := envReaders[path]; !ok {
			continue
		}
		name := path
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = path
	}
	var calls []envCall
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		path, ok := local[pkg.Name]
		if !ok {
			return true
		}
		for _, fn := range envReaders[path] {
			if sel.Sel.Name == fn {
				calls = append(calls, envCall{sel, path + "." + fn})
			}
		}
		return true
	})
	return calls
}

// TestEnvCallsAreFound: the check sees a reader however it is imported,
// and nothing else.
func TestEnvCallsAreFound(t *testing.T) {
	src := `package p
import (
	"os"
	sys "syscall"
)
var a = os.Getenv("X")
var b = os.Environ
func c() { _, _ = sys.Getenv("Y"); _, _ = os.LookupEnv("Z"); _ = os.Args }`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range envCalls(f) {
		names = append(names, c.name)
	}
	if got, want := strings.Join(names, " "), "os.Getenv os.Environ syscall.Getenv os.LookupEnv"; got != want {
		t.Fatalf("found %q; want %q", got, want)
	}
}
