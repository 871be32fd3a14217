package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// command is a terminal call the generated agent makes and what the shell
// answers.
type command struct {
	cmd, summary, output string
	exit, timeout        int
	risk                 string
}

var (
	testNames = []string{"TestBalanceCutoff", "TestAccountsSorted", "TestJournalRecord", "TestEntryValidate",
		"TestHandleBalance", "TestHandleBalanceBadAt", "TestRoutes", "TestRecordStampsUTC"}
	packages = []string{"internal/ledger", "internal/api", "internal/store", "internal/money", "cmd/ledgerd"}
	grepPats = []string{"cutoff", "time.Now", "ErrUnknownAccount", "Postings()", "json.NewEncoder", "Validate()", "UTC()"}
	commits  = []string{"ledger: add Accounts helper", "api: parse ?at= as RFC3339", "store: batch inserts",
		"ci: cache go build", "money: reject NaN amounts", "journal: validate before stamping",
		"docs: document the balance endpoint", "api: return 422 on unknown account", "deps: bump x/sync",
		"ledger: sort account names", "cmd: log the listen address", "store: close rows on error"}
)

// exploreCommand is a read-only look around the repository.
func exploreCommand(rng *rand.Rand, r *repo) command {
	switch rng.IntN(8) {
	case 0:
		return command{cmd: "ls -la", summary: "List the repository root", output: lsOutput(rng), risk: RiskLow}
	case 1:
		pat := grepPats[rng.IntN(len(grepPats))]
		return command{cmd: fmt.Sprintf("grep -rn %q --include='*.go' .", pat), summary: "Find uses of " + pat,
			output: grepOutput(rng, r, pat), risk: RiskLow}
	case 2:
		return command{cmd: "git status", summary: "Check the working tree state", output: gitStatus(rng, r), risk: RiskLow}
	case 3:
		return command{cmd: "git log --oneline -12", summary: "Read the recent history", output: gitLog(rng), risk: RiskLow}
	case 4:
		return command{cmd: "find . -name '*.go' -not -path './vendor/*' | sort", summary: "List the Go source files",
			output: findOutput(r), risk: RiskLow}
	case 5:
		f := r.pick(rng)
		return command{cmd: "head -n 30 " + f.path, summary: "Skim the top of " + f.path,
			output: head(f.content, 30), risk: RiskLow}
	case 6:
		return command{cmd: "cat go.mod", summary: "Check the module and Go version",
			output: "module github.com/acme/ledgerd\n\ngo 1.24\n\nrequire (\n\tgithub.com/jackc/pgx/v5 v5.7.2\n\tgolang.org/x/sync v0.12.0\n)\n\nrequire (\n\tgithub.com/jackc/pgpassfile v1.0.0 // indirect\n\tgithub.com/jackc/puddle/v2 v2.2.2 // indirect\n\tgolang.org/x/text v0.23.0 // indirect\n)", risk: RiskLow}
	default:
		return command{cmd: "go vet ./...", summary: "Vet the module", output: "", risk: RiskLow, timeout: 120}
	}
}

// testCommand runs tests; fail makes them fail the way a real `go test`
// does, with a few KB of output when verbose.
func testCommand(rng *rand.Rand, fail bool) command {
	if rng.IntN(3) == 0 {
		pkg := packages[rng.IntN(2)]
		name := testNames[rng.IntN(len(testNames))]
		c := command{cmd: "go test -v -count=1 ./" + pkg + "/...", summary: "Run the " + pkg + " tests verbosely",
			timeout: 180, risk: RiskLow}
		c.output, c.exit = verboseTests(rng, pkg, name, fail)
		return c
	}
	c := command{cmd: "go test ./...", summary: "Run the whole test suite", timeout: 300, risk: RiskLow}
	var sb strings.Builder
	for i, pkg := range packages {
		if fail && i == 0 {
			name := testNames[rng.IntN(len(testNames))]
			fmt.Fprintf(&sb, "--- FAIL: %s (0.00s)\n    %s_test.go:%d: cash = 2299, want 1300\nFAIL\nFAIL\tgithub.com/acme/ledgerd/%s\t0.%03ds\n",
				name, lastPathPart(pkg), 20+rng.IntN(40), pkg, 4+rng.IntN(90))
			continue
		}
		if pkg == "cmd/ledgerd" {
			fmt.Fprintf(&sb, "?   \tgithub.com/acme/ledgerd/%s\t[no test files]\n", pkg)
			continue
		}
		fmt.Fprintf(&sb, "ok  \tgithub.com/acme/ledgerd/%s\t%d.%03ds\n", pkg, rng.IntN(2), rng.IntN(1000))
	}
	if fail {
		sb.WriteString("FAIL\n")
		c.exit = 1
	}
	c.output = strings.TrimSuffix(sb.String(), "\n")
	return c
}

func verboseTests(rng *rand.Rand, pkg, failing string, fail bool) (string, int) {
	var sb strings.Builder
	n := 6 + rng.IntN(30)
	if rng.IntN(6) == 0 {
		n = 80 + rng.IntN(160) // a table test with many cases: several KB
	}
	for i := 0; i < n; i++ {
		name := testNames[i%len(testNames)]
		if i >= len(testNames) {
			name = fmt.Sprintf("%s/case_%02d", testNames[i%len(testNames)], i)
		}
		fmt.Fprintf(&sb, "=== RUN   %s\n", name)
		if fail && name == failing {
			fmt.Fprintf(&sb, "    %s_test.go:%d: cash = 2299, want 1300\n--- FAIL: %s (0.00s)\n",
				lastPathPart(pkg), 20+rng.IntN(40), name)
			continue
		}
		fmt.Fprintf(&sb, "--- PASS: %s (0.%02ds)\n", name, rng.IntN(20))
	}
	if fail {
		fmt.Fprintf(&sb, "FAIL\nFAIL\tgithub.com/acme/ledgerd/%s\t0.%03ds\nFAIL", pkg, rng.IntN(900)+10)
		return sb.String(), 1
	}
	fmt.Fprintf(&sb, "PASS\nok  \tgithub.com/acme/ledgerd/%s\t0.%03ds", pkg, rng.IntN(900)+10)
	return sb.String(), 0
}

func lsOutput(rng *rand.Rand) string {
	entries := []string{".", "..", ".git", ".github", ".gitignore", ".golangci.yml", "Dockerfile", "LICENSE",
		"Makefile", "README.md", "cmd", "docs", "go.mod", "go.sum", "internal", "migrations", "scripts"}
	var sb strings.Builder
	fmt.Fprintf(&sb, "total %d\n", 40+rng.IntN(60))
	for _, e := range entries {
		dir := !strings.Contains(e, ".") || e == "." || e == ".." || e == ".git" || e == ".github"
		mode, size := "-rw-r--r--  1", 200+rng.IntN(9000)
		if dir {
			mode, size = "drwxr-xr-x  "+fmt.Sprint(2+rng.IntN(6)), 4096
		}
		fmt.Fprintf(&sb, "%s openhands openhands %5d Mar %2d %02d:%02d %s\n", mode, size, 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), e)
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

func grepOutput(rng *rand.Rand, r *repo, pat string) string {
	var sb strings.Builder
	for _, f := range r.files {
		n := 0
		for line := range strings.Lines(f.content) {
			n++
			if strings.Contains(line, strings.TrimSuffix(pat, "()")) {
				fmt.Fprintf(&sb, "./%s:%d:%s", f.path, n, line)
			}
		}
	}
	if sb.Len() == 0 {
		return fmt.Sprintf("./internal/store/postgres.go:%d:\t// %s is handled by the caller", 30+rng.IntN(200), pat)
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

func gitStatus(rng *rand.Rand, r *repo) string {
	s := "On branch fix/balance-cutoff\nYour branch is up to date with 'origin/fix/balance-cutoff'.\n\n"
	if rng.IntN(2) == 0 {
		return s + "nothing to commit, working tree clean"
	}
	return s + "Changes not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n  (use \"git restore <file>...\" to discard changes in working directory)\n\tmodified:   " +
		r.pick(rng).path + "\n\nno changes added to commit (use \"git add\" and/or \"git commit -a\")"
}

func gitLog(rng *rand.Rand) string {
	var sb strings.Builder
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&sb, "%07x %s\n", rng.Uint32()>>4, commits[(i+rng.IntN(3))%len(commits)])
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

func findOutput(r *repo) string {
	var paths []string
	for _, f := range r.files {
		paths = append(paths, "./"+f.path)
	}
	paths = append(paths, "./internal/api/handlers_test.go", "./internal/api/routes.go", "./internal/money/money.go",
		"./internal/money/money_test.go", "./internal/store/postgres.go", "./internal/store/postgres_test.go")
	return strings.Join(sortedCopy(paths), "\n")
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func head(s string, n int) string {
	out, _ := lineRange(s, 1, n)
	return strings.TrimSuffix(out, "\n")
}

func lastPathPart(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
