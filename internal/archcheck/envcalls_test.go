package archcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// envReaders are the calls that read the process environment, by package.
var envReaders = map[string][]string{
	"os":      {"Getenv", "Environ", "LookupEnv"},
	"syscall": {"Getenv", "Environ"},
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
