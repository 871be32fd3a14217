package cli

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"ohwatch/headless"
	"ohwatch/session"
)

// everyCommand is every command a user can ask help for, the completion
// scripts' commands included.
func everyCommand() []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				out = append(out, s)
				walk(s)
			}
		}
	}
	walk(newRoot(&session.Env{Getenv: func(string) string { return "" }}))
	return out
}

// TestHelpTeaches: every command's help, asked with -h, --help or help
// COMMAND, is on stdout (so 'ohwatch fleet --help | less' shows it), names
// the command by its whole path, and shows two or three examples.
func TestHelpTeaches(t *testing.T) {
	for _, c := range everyCommand() {
		path := strings.Fields(strings.TrimPrefix(c.CommandPath(), "ohwatch "))
		for _, args := range [][]string{append(path, "-h"), append(path, "--help"), append([]string{"help"}, path...)} {
			code, out, errs := runCmd(t, nil, args...)
			if code != 0 || errs != "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, errs)
				continue
			}
			if !strings.HasPrefix(out, "Usage: "+c.CommandPath()) {
				t.Errorf("%v does not start with its usage:\n%s", args, out)
			}
			if c.Parent().Name() == "ohwatch" {
				if n := strings.Count(out, "\n  # "); n < 2 || n > 3 {
					t.Errorf("%v shows %d examples, want 2 or 3:\n%s", args, n, out)
				}
			}
		}
	}
}

// TestHelpOnePlaceholderStyle: every flag's value is named in capitals
// (or as its choices, dark|light|auto), never by its Go type.
func TestHelpOnePlaceholderStyle(t *testing.T) {
	good := regexp.MustCompile(`^([A-Z][A-Z0-9_:=]*|[a-z-]+(\|[a-z-]+)+)$`)
	for _, c := range everyCommand() {
		for _, f := range helpOf(c).flags {
			if f.value != "" && !good.MatchString(f.value) {
				t.Errorf("%s --%s: placeholder %q", c.CommandPath(), f.name, f.value)
			}
		}
	}
}

// TestGuardHelpIsWrittenOnce: the commands' --guard help points at 'help
// guards', which holds the rules.
func TestGuardHelpIsWrittenOnce(t *testing.T) {
	_, out, _ := runCmd(t, nil, "watch", "-h")
	if !strings.Contains(out, "'ohwatch help guards'") || strings.Contains(out, "METRIC") {
		t.Errorf("watch -h:\n%s", out)
	}
	code, out, _ := runCmd(t, nil, "help", "guards")
	if code != 0 || !strings.Contains(out, "METRIC>LIMIT[:ACTION]") || !strings.Contains(out, "exit 8") {
		t.Errorf("help guards: exit %d\n%s", code, out)
	}
}

// TestDidYouMean: a mistyped command or flag is named with the one meant.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args       []string
		hint, line string
	}{
		{[]string{"rpelay"}, "did you mean 'ohwatch replay'?", `ohwatch: unknown command "rpelay"`},
		{[]string{"flet"}, "did you mean 'ohwatch fleet'?", `unknown command "flet"`},
		{[]string{"demo", "--headles"}, "did you mean --headless?", "ohwatch demo: unknown flag --headles"},
		{[]string{"ls", "--jsn"}, "did you mean --json?", "ohwatch ls: unknown flag --jsn"},
		{[]string{"serve", "x", "--stager=5s"}, "did you mean --stagger?", "unknown flag --stager"},
		{[]string{"help", "enviroment"}, "did you mean 'ohwatch help environment'?", `unknown command or topic "enviroment"`},
		{[]string{"help", "exit"}, "did you mean 'ohwatch help exit-codes'?", `unknown command or topic "exit"`},
	} {
		code, out, errs := runCmd(t, nil, c.args...)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code != exitUsage || out != "" || len(lines) != 2 || !strings.Contains(lines[0], c.line) || !strings.Contains(lines[1], c.hint) {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s", c.args, code, out, errs)
		}
	}
}

// TestBareOhwatchPiped: ohwatch alone with stdout not a terminal prints
// its help on stdout and succeeds.
func TestBareOhwatchPiped(t *testing.T) {
	code, out, errs := runCmd(t, nil)
	if code != 0 || errs != "" || !strings.Contains(out, "Start here:\n  demo") {
		t.Fatalf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	for _, group := range []string{"Start here:", "Watch:", "Recordings:", "Tools:"} {
		if !strings.Contains(out, group) {
			t.Errorf("no %q group:\n%s", group, out)
		}
	}
	if strings.Index(out, "  demo ") > strings.Index(out, "  watch ") || strings.Index(out, "  replay ") > strings.Index(out, "  serve ") {
		t.Errorf("commands not in the groups' order:\n%s", out)
	}
}

// TestBareOhwatchInATerminalOpensTheFleet: in a terminal, ohwatch alone is
// the fleet over the configured sources: config.yaml's fleet.sources are
// checked as the fleet checks them.
func TestBareOhwatchInATerminalOpensTheFleet(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, "ohwatch", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(home, "no-such-root")
	if err := os.WriteFile(cfg, []byte("fleet:\n  sources: ["+strconv.Quote(missing)+"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	env := &session.Env{Stdout: &out, Stderr: &errs, IsTerminal: true, Getenv: func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return home
		}
		return ""
	}}
	code := run(nil, env)
	if code != exitUsage || !strings.Contains(errs.String(), "fleet.sources") || !strings.Contains(errs.String(), missing) || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out.String(), errs.String())
	}
}

// envRead matches a variable read by name in the source.
var envRead = regexp.MustCompile(`(?:[gG]etenv|LookupEnv)\("([A-Z][A-Z0-9_]*)"\)|Env\s*=\s*"([A-Z][A-Z0-9_]*)"`)

// TestHelpEnvironmentNamesEveryVariable greps the program's source (not its
// tests) for the variables it reads: 'ohwatch help environment' names each.
func TestHelpEnvironmentNamesEveryVariable(t *testing.T) {
	code, out, _ := runCmd(t, nil, "help", "environment")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	found := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "tools" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range envRead.FindAllStringSubmatch(string(src), -1) {
			found[m[1]+m[2]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !found["OPENHANDS_PERSISTENCE_DIR"] || !found["OH_API_KEY"] {
		t.Fatalf("the grep found too little: %v", found)
	}
	for name := range found {
		if !regexp.MustCompile(`\b` + name + `\b`).MatchString(out) {
			t.Errorf("help environment does not name %s", name)
		}
	}
}

// TestHelpExitCodes: every exit code of the headless package is told.
func TestHelpExitCodes(t *testing.T) {
	code, out, _ := runCmd(t, nil, "help", "exit-codes")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, c := range []int{headless.ExitFinished, headless.ExitError, headless.ExitUsage, headless.ExitStuck, headless.ExitUnreachable,
		headless.ExitNoTerminal, headless.ExitRecordIncomplete, headless.ExitTUIFailed, headless.ExitGuard, headless.ExitInterrupted,
		headless.ExitSignalBase + 1, headless.ExitSignalBase + 15} {
		if !regexp.MustCompile(`(?m)^  ` + strconv.Itoa(c) + ` `).MatchString(out) {
			t.Errorf("exit code %d is not told:\n%s", c, out)
		}
	}
}

// TestVersionFromTheReleaseBuild: the release build's ldflags stamp the
// version, commit and date --version prints.
func TestVersionFromTheReleaseBuild(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "ohwatch")
	ld := "-X ohwatch/cli.version=9.8.7 -X ohwatch/cli.commit=feedbee -X ohwatch/cli.date=2026-01-02T03:04:05Z"
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-ldflags", ld, "-o", bin, "ohwatch").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "ohwatch 9.8.7 (commit feedbee, built 2026-01-02T03:04:05Z, " + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	if string(out) != want {
		t.Errorf("got  %q\nwant %q", out, want)
	}
}
