package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGarbageInIsOneLineAndExit2: state and export of an empty file, a
// file of garbage and an SDK directory whose only event is invalid each
// say in one line that no event could be read, with the first reason, and
// exit 2; a file with a bad line among good ones is read, with one
// warning line counting what was not.
func TestGarbageInIsOneLineAndExit2(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	paths := []string{write("empty.jsonl", ""), write("garbage.bin", strings.Repeat("\x00\x01\xffgarbage\n", 377)),
		filepath.Dir(filepath.Dir(write("sdk/events/event-00000-0123456789abcdef.json", `{"kind":`)))}
	for _, cmd := range []string{"state", "export"} {
		for _, p := range paths {
			code, stdout, stderr := runCmd(t, nil, cmd, p)
			if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no event") {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", cmd, filepath.Base(p), code, stdout, stderr)
			}
		}
	}
	mixed := write("mixed.jsonl", `{"kind":"PauseEvent","id":"a"}`+"\n"+strings.Repeat("not json\n", 377)+`{"kind":"PauseEvent","id":"b"}`+"\n")
	for _, cmd := range []string{"state", "export"} {
		code, _, stderr := runCmd(t, nil, cmd, mixed)
		if code != 0 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "377 warnings reading") {
			t.Errorf("%s mixed: exit %d, stderr %q", cmd, code, stderr)
		}
	}
}
