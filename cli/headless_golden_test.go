package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/gen"
)

var updateHeadless = flag.Bool("update-headless", false, "rewrite testdata/headless from the current output")

// headlessCase is one recording whose `replay --headless` output, text and
// JSON, is held in testdata/headless: whole for the small ones, as a
// SHA-256 digest for the generated ones.
type headlessCase struct {
	name   string
	path   string
	digest bool
}

// headlessCases are the project's recordings (every situation, malformed
// files, JSONL, a navigated tree, forks), a recording of hostile strings
// (markup, separators, controls, bidi, invalid UTF-8, whitespace between
// tokens) and two generated ones, one of them navigated.
func headlessCases(t *testing.T) []headlessCase {
	t.Helper()
	cases := []headlessCase{{name: "hostile-events", path: filepath.Join("testdata", "hostile-events.jsonl")}}
	for _, name := range []string{"branches", "cli", "malformed", "malformed.jsonl", "sdk", "sdk.jsonl", "situations", "unknown"} {
		cases = append(cases, headlessCase{name: strings.Replace(name, ".jsonl", "-jsonl", 1), path: filepath.Join("..", "testdata", name)})
	}
	forks, err := os.ReadDir(filepath.Join("..", "testdata", "forks"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range forks {
		cases = append(cases, headlessCase{name: "fork-" + f.Name()[:8], path: filepath.Join("..", "testdata", "forks", f.Name())})
	}
	tmp := t.TempDir()
	for _, g := range []struct {
		name string
		opts gen.Options
	}{
		{"generated", gen.Options{Events: 1500, Seed: 5}},
		{"navigated", gen.Options{Events: 600, Seed: 7, Branches: 3}},
	} {
		dir := filepath.Join(tmp, g.name)
		if err := gen.WriteDir(dir, g.opts); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, headlessCase{name: g.name, path: dir, digest: true})
	}
	return cases
}

// TestHeadlessReplayOutputIsUnchanged holds every line `replay --headless`
// prints, text and JSON, and its exit code, to what it printed before
// its lines were written faster: a change to the output must be made on
// purpose (go test ./cli -run HeadlessReplayOutput -update-headless).
// A change to gen changes the generated recordings' digests too.
func TestHeadlessReplayOutputIsUnchanged(t *testing.T) {
	for _, c := range headlessCases(t) {
		for _, mode := range []struct {
			ext  string
			args []string
		}{{"txt", nil}, {"jsonl", []string{"--json"}}} {
			t.Run(c.name+"."+mode.ext, func(t *testing.T) {
				code, out, _ := runCmd(t, nil, append([]string{"replay", c.path, "--headless"}, mode.args...)...)
				got := fmt.Sprintf("exit %d\n%s\n", code, strings.TrimRight(out, "\n"))
				golden := filepath.Join("testdata", "headless", c.name+"."+mode.ext)
				if c.digest {
					sum := sha256.Sum256([]byte(got))
					got = hex.EncodeToString(sum[:]) + "\n"
					golden += ".sha256"
				}
				if *updateHeadless {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if got != string(want) {
					t.Errorf("replay %s --headless %v: output differs from %s%s", c.path, mode.args, golden, firstDifference(string(want), got))
				}
			})
		}
	}
}

// firstDifference shows the first line where got departs from want.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("\nline %d:\nwant %q\ngot  %q", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("\n%d lines, want %d", len(g), len(w))
}
