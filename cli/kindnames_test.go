package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ohwatch/model"
)

// TestKindNamesLiveOnlyInTheTable parses every non-test Go file of the
// module and fails on a string literal that is a kind's name anywhere but
// in model/kinds.go: a reader that needs a kind reads the table
// (model.Kinds) or its name constants, so adding a kind touches one file.
func TestKindNamesLiveOnlyInTheTable(t *testing.T) {
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, k := range model.Kinds() {
		names[k.Name] = true
	}
	table := filepath.Join(root, "model", "kinds.go")
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == table {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
				t.Errorf("%s: the kind name %s outside the table; use its model.Kind… constant", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
