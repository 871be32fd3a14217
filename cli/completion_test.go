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
// ohwatch's; `ohwatch help` lists every command with its key flags.
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
		"gen DIR --events N [--seed S] [--branches K] [--forks F] [--jsonl]", "Exit codes:"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	if code, _, errs := runCmd(t, nil, "help", "nonsense"); code != exitUsage || !strings.Contains(errs, `unknown command "nonsense"`) {
		t.Errorf("help nonsense: exit %d\n%s", code, errs)
	}
}
