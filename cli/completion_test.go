package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletionScripts: `ohwatch completion bash` is a script bash
// parses (bash -n), naming the commands; zsh and fish get theirs.
func TestCompletionScripts(t *testing.T) {
	code, script, errs := runCmd(t, nil, "completion", "bash")
	if code != 0 || !strings.Contains(script, "ohwatch") {
		t.Fatalf("completion bash: exit %d\n%s", code, errs)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to parse the script with")
	}
	file := filepath.Join(t.TempDir(), "ohwatch.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bash, "-n", file).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	for _, shell := range []string{"zsh", "fish"} {
		if code, script, errs := runCmd(t, nil, "completion", shell); code != 0 || !strings.Contains(script, "ohwatch") {
			t.Errorf("completion %s: exit %d\n%s", shell, code, errs)
		}
	}
	if code, _, _ := runCmd(t, nil, "completion", "tcsh"); code != exitUsage {
		t.Errorf("completion tcsh: exit %d, want %d", code, exitUsage)
	}
}

// TestHelpCommand: `ohwatch help replay` prints replay's help, not
// ohwatch's; `ohwatch help` lists every command with its arguments.
func TestHelpCommand(t *testing.T) {
	code, out, _ := runCmd(t, nil, "help", "replay")
	if code != 0 || !strings.HasPrefix(out, "Usage: ohwatch replay PATH") || !strings.Contains(out, "  --follow\n") || strings.Contains(out, "Commands:") {
		t.Errorf("help replay: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, nil, "help")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	for _, want := range []string{"demo", "watch", "cloud", "replay", "ls", "fleet", "state", "export", "serve", "gen", "completion",
		"gen DIR --events N [flags]", "help exit-codes"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	if code, _, errs := runCmd(t, nil, "help", "nonsense"); code != exitUsage || !strings.Contains(errs, `unknown command "nonsense"`) {
		t.Errorf("help nonsense: exit %d\n%s", code, errs)
	}
}

// TestCompleteConversations: replay's PATH completes to the local root's
// conversation directories (with their titles), files too; watch's
// --conversation to their ids, and nothing else.
func TestCompleteConversations(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "0123456789abcdef0123456789abcdef")
	if code, _, errs := runCmd(t, nil, "gen", dir, "--events", "8"); code != 0 {
		t.Fatal(errs)
	}
	if err := writeMeta(dir, "Fix the cache"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENHANDS_CONVERSATIONS_DIR", root)
	_, out, errs := runCmd(t, nil, "__complete", "replay", root+"/")
	if !strings.Contains(out, dir+"\tFix the cache\n") || !strings.Contains(out, ":0\n") {
		t.Errorf("replay PATH:\n%s%s", out, errs)
	}
	_, out, errs = runCmd(t, nil, "__complete", "watch", "http://127.0.0.1:8000", "--conversation", "")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "\tFix the cache") || lines[1] != ":4" {
		t.Errorf("watch --conversation:\n%s%s", out, errs)
	}
	if _, out, _ = runCmd(t, nil, "__complete", "watch", "--conversation", "ffff"); strings.Contains(out, "Fix the cache") {
		t.Errorf("an id not matching the prefix is offered:\n%s", out)
	}
}
