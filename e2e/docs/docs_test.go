// Package docs runs the examples of README.md and docs/ against the
// built binary, so an example that breaks fails CI.
//
// An example is a ```console block: each line starting with "$ " is a
// command, run by bash (with pipefail) in the block's own empty
// directory, with the ohwatch just built first on PATH; the lines after
// it, up to the next command, are its stdout exactly, where a line "..."
// stands for any number of lines and a last line "[exit N]" for the exit
// code it must end with (else 0). stderr is not compared: it holds what
// a person is told, and the examples show what a script reads.
package docs

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// example is one command of a console block and what it must print.
type example struct {
	file    string
	line    int
	command string
	want    []string
	exit    int
}

// examples reads the console blocks of a markdown file, one block per
// slice.
func examples(t *testing.T, path, name string) [][]example {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks [][]example
	var cur []example
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case !in && strings.TrimSpace(l) == "```console":
			in, cur = true, nil
		case in && strings.TrimSpace(l) == "```":
			in = false
			blocks = append(blocks, cur)
		case in && strings.HasPrefix(l, "$ "):
			cur = append(cur, example{file: name, line: n, command: strings.TrimPrefix(l, "$ ")})
		case in && len(cur) > 0:
			e := &cur[len(cur)-1]
			if code, ok := strings.CutPrefix(l, "[exit "); ok && strings.HasSuffix(code, "]") {
				e.exit, _ = strconv.Atoi(strings.TrimSuffix(code, "]"))
				continue
			}
			e.want = append(e.want, l)
		}
	}
	return blocks
}

// matches says whether got is want, "..." in want standing for any
// number of lines.
func matches(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if matches(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && matches(want[1:], got[1:])
}

// TestDocsExamples runs every console example of README.md and docs/.
func TestDocsExamples(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "ohwatch"), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	files := []string{"README.md"}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*", "*.md"))
	for _, d := range append(docs, more...) {
		rel, _ := filepath.Rel(root, d)
		files = append(files, rel)
	}
	count := 0
	for _, name := range files {
		for _, block := range examples(t, filepath.Join(root, name), name) {
			if len(block) == 0 {
				continue
			}
			count += len(block)
			t.Run(strings.ReplaceAll(block[0].file, "/", "_")+":"+strconv.Itoa(block[0].line), func(t *testing.T) {
				t.Parallel()
				runBlock(t, bin, block)
			})
		}
	}
	if count == 0 {
		t.Fatal("no console example found")
	}
}

// runBlock runs one block's commands in order in a fresh directory.
func runBlock(t *testing.T, bin string, block []example) {
	dir := t.TempDir()
	home := t.TempDir()
	env := []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"OPENHANDS_CONVERSATIONS_DIR=" + filepath.Join(home, "conversations"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"NO_COLOR=1",
		"TERM=dumb",
		"GOCACHE=" + os.Getenv("GOCACHE"),
	}
	for _, e := range block {
		cmd := exec.Command("bash", "-o", "pipefail", "-c", e.command)
		cmd.Dir, cmd.Env = dir, env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s:%d: %s: %v", e.file, e.line, e.command, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(out) == 0 {
			got = nil
		}
		if code != e.exit || !matches(e.want, got) {
			t.Errorf("%s:%d: $ %s\nexit %d (want %d)\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", e.file, e.line, e.command, code, e.exit,
				out, strings.Join(e.want, "\n"), stderr.String())
		}
	}
}

// TestMatches: "..." stands for any number of lines, anywhere.
func TestMatches(t *testing.T) {
	for _, c := range []struct {
		want, got []string
		ok        bool
	}{
		{[]string{"a", "...", "z"}, []string{"a", "b", "c", "z"}, true},
		{[]string{"a", "...", "z"}, []string{"a", "z"}, true},
		{[]string{"...", "z"}, []string{"a", "y"}, false},
		{[]string{"a"}, []string{"a", "b"}, false},
		{nil, nil, true},
	} {
		if got := matches(c.want, c.got); got != c.ok {
			t.Errorf("matches(%q, %q) = %v", c.want, c.got, got)
		}
	}
}

// mdLink matches a markdown link's target.
var mdLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)

// fence matches a fenced block, whose text is not links.
var fence = regexp.MustCompile("(?s)```.*?```")

// TestDocsLinks: every relative link of the README, the guides and docs/
// names a file that exists.
func TestDocsLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	files := []string{"README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "CHANGELOG.md"}
	for _, pat := range []string{"docs/*.md", "docs/*/*.md"} {
		more, _ := filepath.Glob(filepath.Join(root, pat))
		for _, m := range more {
			rel, _ := filepath.Rel(root, m)
			files = append(files, rel)
		}
	}
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(fence.ReplaceAllString(string(src), ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.Dir(name), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist", name, target)
			}
		}
	}
}
