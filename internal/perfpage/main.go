// Command perfpage measures the figures of docs/performance.md and
// writes them into its table: each row's command is run, and the row's
// rule turns the benchmark's own output into the "measured" cell, so a
// figure on the page is what a benchmark reported, never a number typed
// in. The page's line starting "Last run:" gets the date, the commit, the
// Go version, the CPUs and the load average the run began with; the
// history of the figures is the page's git log.
//
// Run it from the repository on an idle machine (every row takes about
// an hour on 2 cores):
//
//	go run ./internal/perfpage                 # every row
//	go run ./internal/perfpage -run 'fleet'    # the rows whose figure matches
//	go run ./internal/perfpage -dry -run JSONL # print the cells, leave the page
//
// A row measured by another command than `go test` says when it was
// measured by hand and is left as it is. A test checks that the page's
// rows and the rules here are the same table.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"ohwatch/internal/modroot"
)

func main() {
	runFlag := flag.String("run", "", "measure only the rows whose figure matches `REGEXP`")
	dry := flag.Bool("dry", false, "print the measured cells without writing the page")
	pagePath := flag.String("page", "docs/performance.md", "the page, relative to the module's root")
	flag.Parse()
	if err := perf(*runFlag, *dry, *pagePath, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "perfpage:", err)
		os.Exit(1)
	}
}

func perf(pattern string, dry bool, pagePath string, out io.Writer) error {
	match, err := regexp.Compile(pattern)
	if err != nil {
		return err
	}
	root, err := modroot.Find()
	if err != nil {
		return err
	}
	pagePath = filepath.Join(root, pagePath)
	raw, err := os.ReadFile(pagePath)
	if err != nil {
		return err
	}
	page := string(raw)
	rows := allRows()
	if err := check(page, rows); err != nil {
		return fmt.Errorf("%s and the rules differ:\n%v", pagePath, err)
	}
	var chosen []row
	for _, rw := range rows {
		if match.MatchString(rw.figure) {
			chosen = append(chosen, rw)
		}
	}
	if len(chosen) == 0 {
		return fmt.Errorf("no row's figure matches %q", pattern)
	}
	stamp := stampLine(root, len(chosen), len(rows), pattern)
	fmt.Fprintln(out, stamp)
	measured := map[string]string{}
	failed := 0
	for _, rw := range chosen {
		fmt.Fprintf(out, "\n## %s\n", rw.figure)
		if rw.hand != "" {
			fmt.Fprintf(out, "%s (`%s`): left as it is\n", rw.handNote(), rw.cmd)
			continue
		}
		fmt.Fprintf(out, "$ %s\n", rw.cmd)
		cell, err := measure(root, rw, out)
		if err != nil {
			fmt.Fprintf(out, "FAILED: %v\n", err)
			failed++
			continue
		}
		fmt.Fprintf(out, "=> %s\n", cell)
		measured[rw.figure] = cell
	}
	if !dry && len(measured) > 0 {
		next, err := rewrite(page, rows, measured, stamp)
		if err != nil {
			return err
		}
		if err := os.WriteFile(pagePath, []byte(next), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(out, "\nwrote %d cells into %s\n", len(measured), pagePath)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d rows failed; their cells are left as they were", failed, len(chosen))
	}
	return nil
}

// measure runs a row's command and writes its cell. The benchmarks'
// lines are copied to out as they come, the rest of the output only when
// the command fails.
func measure(root string, rw row, out io.Writer) (string, error) {
	argv, err := args(rw.cmd)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = root
	// Two buffers: exec copies each stream on its own goroutine, and a
	// bytes.Buffer written from two at once loses what one wrote.
	var buf, stderr bytes.Buffer
	cmd.Stdout = io.MultiWriter(&buf, &benchLines{w: out})
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		out.Write(buf.Bytes())
		out.Write(stderr.Bytes())
		return "", err
	}
	res, err := parseBench(&buf, runtime.GOMAXPROCS(0))
	if err != nil {
		return "", err
	}
	cell := rw.cell(res)
	if res.err != nil {
		return "", res.err
	}
	return cell, nil
}

// benchLines passes on the lines of benchmark output (results, and the
// ok or FAIL of the package), dropping the rest.
type benchLines struct {
	w       io.Writer
	partial []byte
}

func (b *benchLines) Write(p []byte) (int, error) {
	b.partial = append(b.partial, p...)
	for {
		i := bytes.IndexByte(b.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := b.partial[:i+1]
		for _, prefix := range []string{"Benchmark", "ok", "FAIL", "---", "    "} {
			if bytes.HasPrefix(line, []byte(prefix)) {
				b.w.Write(line)
				break
			}
		}
		b.partial = b.partial[i+1:]
	}
}

// stampLine says when and on what a run measured.
func stampLine(root string, chosen, total int, pattern string) string {
	which := "every row"
	if chosen < total {
		which = fmt.Sprintf("%d of %d rows (`-run '%s'`)", chosen, total, pattern)
	}
	return fmt.Sprintf("%s%s, commit %s, %s, %d CPUs (%s), load average %s as it began; it measured %s.",
		stampPrefix, time.Now().UTC().Format("2006-01-02T15:04Z"), commit(root), goVersion(root),
		runtime.NumCPU(), cpuModel(), loadAverage(), which)
}

// commit is HEAD's short hash, "+changes" when files other than the
// page differ from it: the figures were measured on code not committed.
func commit(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	status, err := exec.Command("git", "-C", root, "status", "--porcelain", "--", ".", ":!docs/performance.md").Output()
	if err == nil && len(bytes.TrimSpace(status)) > 0 {
		c += "+changes"
	}
	return c
}

// goVersion is the toolchain that builds the benchmarks: the go command
// on the PATH, not the one that built this program.
func goVersion(root string) string {
	cmd := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return runtime.Version()
	}
	f := strings.Fields(string(out))
	if len(f) != 3 {
		return runtime.Version()
	}
	return f[0] + " " + f[1] + "/" + f[2]
}

// cpuModel is the processor's name (Linux), or "unknown".
func cpuModel() string {
	raw, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return "unknown"
}

// loadAverage is the 1-, 5- and 15-minute load average (Linux), or
// "unknown" where /proc does not give it.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
