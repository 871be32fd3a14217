package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ohwatch/session"
)

// TestBadUsageNamesTheMistake runs each mistake through the real command
// parsing: one line naming it, one line of hint, exit 2, and never the
// whole help text.
func TestBadUsageNamesTheMistake(t *testing.T) {
	rec := twin(t, "simple_echo_hello_world")
	const id = "0123456789abcdef0123456789abcdef"
	aFile := filepath.Join(t.TempDir(), "conv.jsonl")
	if err := os.WriteFile(aFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args    []string
		mistake string
		hint    string
	}{
		{[]string{"watch", "http://127.0.0.1:1"}, "ohwatch watch: missing --conversation ID", "--conversation ID"},
		{[]string{"watch"}, "missing the agent-server URL", "http://HOST:PORT"},
		{[]string{"watch", "http://a", "http://b", "--conversation", id}, `unexpected argument "http://b"`, "ohwatch watch"},
		{[]string{"export", rec, "--format", "html"}, `ohwatch export: unknown --format "html"`, "md, json, jsonl"},
		{[]string{"replay"}, "ohwatch replay: missing PATH", "ohwatch replay PATH"},
		{[]string{"watch", "127.0.0.1:8000", "--conversation", id}, `ohwatch watch: the URL "127.0.0.1:8000" has no scheme`, "http://127.0.0.1:8000"},
		{[]string{"watch", "ftp://127.0.0.1:8000", "--conversation", id}, "scheme must be http or https", "http://HOST:PORT"},
		{[]string{"state", rec, "--at", "-1"}, "ohwatch state: --at must be 0 or more, not -1", "leave --at out"},
		{[]string{"state", rec, "--bogus"}, "ohwatch state: unknown flag --bogus", "ohwatch state -h"},
		{[]string{"replay", "--bogus-flag", "x"}, "ohwatch replay: unknown flag --bogus-flag", "ohwatch replay -h"},
		{[]string{"state", rec, "--at"}, "ohwatch state: --at needs a value", "ohwatch state -h"},
		{[]string{"state", rec, "--at", "many"}, `ohwatch state: invalid value "many" for --at`, "ohwatch state -h"},
		{[]string{"watch", "http://127.0.0.1:1", "--conversation", "abc"}, `--conversation "abc" is neither a UUID nor 32 hex digits`, "ohwatch ls http://127.0.0.1:1"},
		// The URL forms compare takes; the hint names the server alone,
		// so the command it suggests works.
		{[]string{"watch", "http://127.0.0.1:1/api/conversations/abc"}, `the URL's conversation "abc" is neither a UUID`, "'ohwatch ls http://127.0.0.1:1' lists them"},
		{[]string{"watch", "http://127.0.0.1:1/api/conversations/"}, "names no conversation after /conversations/", "http://HOST:PORT/api/conversations/ID"},
		{[]string{"watch", "http://127.0.0.1:1#" + id, "--conversation", "fedcba9876543210fedcba9876543210"}, "the URL names conversation", "name it once"},
		{[]string{"watch", "http://127.0.0.1:1/prefix/"}, "ohwatch watch: missing --conversation ID", "'ohwatch ls http://127.0.0.1:1/prefix' lists them"},
		{[]string{"cloud", "--conversation", "not-an-id"}, `--conversation "not-an-id" is neither a UUID nor 32 hex digits`, "Cloud URL"},
		{[]string{"ls", "/does/not/exist"}, "ohwatch ls: /does/not/exist does not exist", "conversations root"},
		{[]string{"ls", "127.0.0.1:8000"}, "does not exist", "http://127.0.0.1:8000"},
		{[]string{"state", "/does/not/exist"}, "ohwatch state: /does/not/exist does not exist", "conversation directory"},
		{[]string{"export", "/does/not/exist"}, "ohwatch export: /does/not/exist does not exist", "conversation directory"},
		{[]string{"serve", rec, "--speed", "-2"}, "ohwatch serve: --speed must be 0 or more, not -2", "--speed 0"},
		{[]string{"serve", rec, "--addr", "8000"}, `ohwatch serve: --addr "8000" is not HOST:PORT`, "127.0.0.1:8000"},
		{[]string{"replay", aFile, "--follow"}, "--follow: ", "without it"},
		{[]string{"demo", "extra"}, `ohwatch demo: unexpected argument "extra"`, "ohwatch demo"},
		{[]string{"gen", t.TempDir(), "--events", "0"}, "ohwatch gen: --events must be 1 or more", "ohwatch gen -h"},
		{[]string{"gen", t.TempDir(), "--branches", "-1"}, "ohwatch gen: --branches must be 0 or more", "ohwatch gen -h"},
		{[]string{"state", rec, "--branch", "nope"}, `ohwatch state: --branch: no event "nope" in this recording`, "HEAD's path"},
		{[]string{"replay", rec, "--headless", "--branch", "nope"}, `ohwatch replay: --branch: no event "nope" in this recording`, "HEAD's path"},
		{[]string{"replay", rec, "--follow", "--branch", "x"}, "ohwatch replay: --branch picks the path of the headless lines", "without --follow"},
		{[]string{"export", rec, "--branch", "nope"}, `ohwatch export: --branch: no event "nope" in this recording`, "HEAD's path"},
		{[]string{"watch", "http://127.0.0.1:1", "--conversation", id, "--session-key-file", "/does/not/exist"}, "--session-key-file: open /does/not/exist", "SESSION_API_KEY"},
		{[]string{"nonsense"}, `ohwatch: unknown command "nonsense"`, "replay, serve, state"},
		{[]string{"replay", rec, "-headless"}, "ohwatch replay: unknown flag -headless", "flags take two dashes: --headless"},
		{[]string{"export", rec, "-o"}, "ohwatch export: -o needs a value", "ohwatch export -h"},
		{[]string{"help", "nonsense"}, `ohwatch help: unknown command "nonsense"`, "ohwatch help"},
		{[]string{"completion", "tcsh"}, `ohwatch completion: no completion for the shell "tcsh"`, "bash|zsh|fish"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, map[string]string{"OH_API_KEY": "k"}, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d\n%s%s", code, exitUsage, out, errs)
			}
			lines := strings.Split(strings.TrimRight(errs, "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("stderr has %d lines, want the mistake and a hint:\n%s", len(lines), errs)
			}
			if !strings.Contains(lines[0], tc.mistake) {
				t.Errorf("mistake line %q lacks %q", lines[0], tc.mistake)
			}
			if !strings.HasPrefix(lines[1], "  hint: ") || !strings.Contains(lines[1], tc.hint) {
				t.Errorf("hint line %q lacks %q", lines[1], tc.hint)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// TestListWithoutRootIsAnAnswer: no conversations root yet is exit 0.
func TestListWithoutRootIsAnAnswer(t *testing.T) {
	t.Setenv("OPENHANDS_CONVERSATIONS_DIR", filepath.Join(t.TempDir(), "none"))
	if code, _, errs := runCmd(t, nil, "ls"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// TestHelpSpellsFlagsWithTwoDashes checks every command's -h: on stdout,
// exit 0, and every flag spelled --flag as the README spells it.
func TestHelpSpellsFlagsWithTwoDashes(t *testing.T) {
	single := regexp.MustCompile(`(?m)^\s+-[a-z]`)
	for _, c := range newRoot(&session.Env{Getenv: func(string) string { return "" }}).Commands() {
		name := c.Name()
		if !c.IsAvailableCommand() || name == "completion" || name == "version" {
			continue
		}
		code, errs, stderr := runCmd(t, nil, name, "-h")
		if code != 0 || stderr != "" {
			t.Errorf("%s -h: exit %d, stderr %q", name, code, stderr)
		}
		if !strings.Contains(errs, "Usage: ohwatch "+name) || !strings.Contains(errs, "\n  --") {
			t.Errorf("%s -h:\n%s", name, errs)
		}
		if single.MatchString(errs) {
			t.Errorf("%s -h spells a flag with one dash:\n%s", name, errs)
		}
	}
	_, errs, _ := runCmd(t, nil, "state", "--help")
	if !strings.Contains(errs, "  --at N\n") || !strings.Contains(errs, "(default: all)") || strings.Contains(errs, "default -1") {
		t.Errorf("state --help:\n%s", errs)
	}
	// The API key's flag never shows a value from the environment.
	_, errs, _ = runCmd(t, map[string]string{"OH_API_KEY": "sk-from-env"}, "cloud", "-h")
	if strings.Contains(errs, "sk-from-env") {
		t.Error("cloud -h shows the API key")
	}
}

// TestCloudWithoutKeySaysSo: no API key is a mistake with a hint too.
func TestCloudWithoutKeySaysSo(t *testing.T) {
	code, _, errs := runCmd(t, nil, "cloud", "--headless")
	if code != exitUsage || !strings.HasPrefix(errs, "ohwatch cloud: no OpenHands Cloud API key\n  hint: set OH_API_KEY") {
		t.Fatalf("exit %d: %q", code, errs)
	}
}
