package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The page and the rules are one table: a row added to the page by hand
// has no rule and fails here, as does a rule without its row, a target
// or command that differs, or a row measured by hand that does not say
// when.
func TestPageMatchesRows(t *testing.T) {
	page, err := os.ReadFile("../../docs/performance.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := check(string(page), allRows()); err != nil {
		t.Error(err)
	}
}

func TestCheckFindsStrayRows(t *testing.T) {
	rows := []row{
		{figure: "a", target: "≤ 1", cmd: "go test -bench A ./a", cell: func(*results) string { return "" }},
		{figure: "b", target: "—", cmd: "tools/b.sh", hand: "2026-01-02"},
	}
	page := "# P\n\nLast run: x.\n\n" + header + "\n" + separator + "\n" +
		formatRow("a", "≤ 1", "**1**", "go test -bench A ./a") + "\n" +
		formatRow("b", "—", "met (measured by hand on 2026-01-02)", "tools/b.sh") + "\n\nafter\n"
	if err := check(page, rows); err != nil {
		t.Fatalf("a matching page: %v", err)
	}
	for name, edit := range map[string]func(string) string{
		"row added by hand": func(p string) string {
			return strings.Replace(p, "\n\nafter", "\n"+formatRow("c", "—", "1", "go test ./c")+"\n\nafter", 1)
		},
		"row removed": func(p string) string {
			return strings.Replace(p, formatRow("a", "≤ 1", "**1**", "go test -bench A ./a")+"\n", "", 1)
		},
		"command changed": func(p string) string { return strings.Replace(p, "-bench A", "-bench B", 1) },
		"target changed":  func(p string) string { return strings.Replace(p, "| ≤ 1 |", "| ≤ 2 |", 1) },
		"hand row undated": func(p string) string {
			return strings.Replace(p, " (measured by hand on 2026-01-02)", "", 1)
		},
		"no stamp line": func(p string) string { return strings.Replace(p, "Last run: x.", "", 1) },
	} {
		if err := check(edit(page), rows); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRewrite(t *testing.T) {
	rows := []row{
		{figure: "a|b", target: "≤ 1", cmd: "go test -bench 'A|B' ./a"},
		{figure: "c", target: "—", cmd: "go test -bench C ./c"},
		{figure: "new", target: "—", cmd: "go test -bench N ./n"},
	}
	page := "# P\n\nLast run: old.\n\n" + header + "\n" + separator + "\n" +
		`| a\|b | ≤ 1 | **1** | ` + "`go test -bench 'A\\|B' ./a`" + ` |` + "\n" +
		"| c | — | kept | `go test -bench C ./c` |\n\nafter\n"
	got, err := rewrite(page, rows, map[string]string{"a|b": "**2**"}, "Last run: now.")
	if err != nil {
		t.Fatal(err)
	}
	want := "# P\n\nLast run: now.\n\n" + header + "\n" + separator + "\n" +
		`| a\|b | ≤ 1 | **2** | ` + "`go test -bench 'A\\|B' ./a`" + ` |` + "\n" +
		"| c | — | kept | `go test -bench C ./c` |\n" +
		"| new | — | not measured yet | `go test -bench N ./n` |\n\nafter\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestArgs(t *testing.T) {
	got, err := args(`go test -run '^$' -bench 'DecodeGenerated$|Redecode' -benchtime 3x ./model`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"go", "test", "-run", "^$", "-bench", "DecodeGenerated$|Redecode", "-benchtime", "3x", "./model"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q", got)
	}
	for _, bad := range []string{`go test -bench A|B`, `go test 'open`, `go test "x"`, `go test $X`} {
		if _, err := args(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Every rule's command runs as written: go test of a package, or, for a
// row measured by hand, no rule at all.
func TestRowsRun(t *testing.T) {
	for _, rw := range allRows() {
		if rw.hand != "" {
			if rw.cell != nil {
				t.Errorf("%q: measured by hand yet has a rule", rw.figure)
			}
			continue
		}
		a, err := args(rw.cmd)
		if err != nil {
			t.Errorf("%q: %v", rw.figure, err)
			continue
		}
		if len(a) < 3 || a[0] != "go" || a[1] != "test" || !slices.Contains(a, "-bench") || rw.cell == nil {
			t.Errorf("%q: %q is not a benchmark with a rule", rw.figure, rw.cmd)
		}
	}
}
