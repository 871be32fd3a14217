package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// configHome writes text as the configuration file of a fresh
// XDG_CONFIG_HOME and returns the environment naming it, and the file.
func configHome(t *testing.T, text string) (map[string]string, string) {
	t.Helper()
	home := t.TempDir()
	path := filepath.Join(home, "ohwatch", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"XDG_CONFIG_HOME": home}, path
}

// TestConfigCommand: `ohwatch config` prints each value with where it
// came from: the file's line, the environment, a flag, the default.
func TestConfigCommand(t *testing.T) {
	env, path := configHome(t, "theme: light\nnotifications: false\nkeys:\n  monitor:\n    bookmark: K\n")
	code, out, errs := runCmd(t, env, "config")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	q := regexp.QuoteMeta(path)
	for _, want := range []string{`# file: ` + q + `\n`, `theme: light\s+# ` + q + `:1\n`, `notifications: false\s+# ` + q + `:2\n`,
		`bookmark: \[K\]\s+# ` + q + `:5\n`, `sort: idle\s+# default\n`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("lacks %s:\n%s", want, out)
		}
	}
	env["OHWATCH_THEME"] = "dark"
	if _, out, _ = runCmd(t, env, "config"); !regexp.MustCompile(`theme: dark\s+# env OHWATCH_THEME\n`).MatchString(out) {
		t.Errorf("the environment does not override the file:\n%s", out)
	}
	if _, out, _ = runCmd(t, env, "config", "--theme", "light", "--no-notify"); !regexp.MustCompile(`theme: light\s+# flag --theme\n`).MatchString(out) ||
		!regexp.MustCompile(`notifications: false\s+# flag --no-notify\n`).MatchString(out) {
		t.Errorf("the flag does not override the environment:\n%s", out)
	}
}

// TestBadConfig: a mistake in the file stops a TUI command with one line
// naming the file, its line and the key, exit 2; commands that do not
// read the file (gen) are not stopped by it.
func TestBadConfig(t *testing.T) {
	env, path := configHome(t, "theme: dark\nfleet:\n  sort: price\n")
	for _, args := range [][]string{{"config"}, {"replay", twin(t, "simple_echo_hello_world"), "--headless"}, {"fleet", "--headless"}} {
		code, _, errs := runCmd(t, env, args...)
		want := "ohwatch: config: " + path + `:3: fleet.sort: unknown column "price"`
		if code != exitUsage || !strings.HasPrefix(errs, want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d\n%s\nwant %s", args, code, errs, want)
		}
	}
	if code, _, errs := runCmd(t, env, "gen", filepath.Join(t.TempDir(), "c"), "--events", "5"); code != 0 {
		t.Errorf("gen stopped by the configuration: exit %d %s", code, errs)
	}
}

// TestConfigFleetSources: the fleet watches the file's sources when given
// none, and a source of the file that does not exist is named with its
// line.
func TestConfigFleetSources(t *testing.T) {
	root := t.TempDir()
	if code, _, errs := runCmd(t, nil, "gen", filepath.Join(root, "0123456789abcdef0123456789abcdef"), "--events", "12"); code != 0 {
		t.Fatal(errs)
	}
	env, _ := configHome(t, "fleet:\n  sources: ["+root+"]\n")
	code, out, errs := runCmd(t, env, "fleet", "--headless", "--until", "all")
	if code == exitUsage || !strings.Contains(out, "0123456") {
		t.Errorf("exit %d; the file's source is not watched:\n%s%s", code, out, errs)
	}
	env, path := configHome(t, "fleet:\n  sources: [/no/such/root]\n")
	code, _, errs = runCmd(t, env, "fleet", "--headless")
	if code != exitUsage || !strings.Contains(errs, path+":2") || !strings.Contains(errs, "/no/such/root") {
		t.Errorf("exit %d\n%s", code, errs)
	}
}

// TestConfigGuards: the file's guards judge a replay given no --guard;
// --guard replaces them; `ohwatch config` prints them with their line; a
// bad rule in the file is one line naming it, exit 2.
func TestConfigGuards(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0123456789abcdef0123456789abcdef")
	if code, _, errs := runCmd(t, nil, "gen", dir, "--events", "40"); code != 0 {
		t.Fatal(errs)
	}
	env, path := configHome(t, "guards: [\"steps>1\"]\n")
	rules := func(args ...string) []any {
		t.Helper()
		code, out, errs := runCmd(t, env, append([]string{"replay", dir, "--headless", "--json"}, args...)...)
		if code == exitUsage {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var got []any
		for _, l := range guardLines(t, out) {
			got = append(got, l["rule"])
		}
		return got
	}
	if got := rules(); len(got) != 1 || got[0] != "steps>1" {
		t.Errorf("the file's guard: tripped %v, want [steps>1]", got)
	}
	if got := rules("--guard", "steps>2"); len(got) != 1 || got[0] != "steps>2" {
		t.Errorf("with --guard: tripped %v, want [steps>2] alone", got)
	}
	// --no-guards turns the file's guards off: no trip, and no exit 8
	// from a pause guard in the file.
	if got := rules("--no-guards"); len(got) != 0 {
		t.Errorf("with --no-guards: tripped %v, want none", got)
	}
	if got := rules("--no-guards", "--guard", "steps>2"); len(got) != 1 || got[0] != "steps>2" {
		t.Errorf("with --no-guards --guard: tripped %v, want [steps>2] alone", got)
	}
	penv, _ := configHome(t, "guards: [\"steps>1:pause\"]\n")
	if code, _, errs := runCmd(t, penv, "replay", dir, "--headless"); code != 8 {
		t.Errorf("a pause guard from the file: exit %d, want 8: %s", code, errs)
	}
	if code, _, errs := runCmd(t, penv, "replay", dir, "--headless", "--no-guards"); code == 8 {
		t.Errorf("--no-guards still exits 8: %s", errs)
	}
	if _, out, _ := runCmd(t, env, "config"); !regexp.MustCompile(`guards: \["steps>1"\]\s+# ` + regexp.QuoteMeta(path) + `:1\n`).MatchString(out) {
		t.Errorf("config does not print the guards:\n%s", out)
	}
	env, path = configHome(t, "theme: dark\nguards:\n  - steps>1\n  - cost>lots\n")
	code, _, errs := runCmd(t, env, "replay", dir, "--headless")
	if want := "ohwatch: config: " + path + `:4: guards: guard "cost>lots"`; code != exitUsage || !strings.HasPrefix(errs, want) || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d\n%s\nwant %s", code, errs, want)
	}
}
