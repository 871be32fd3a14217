//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCommandsSkipAFIFOInEvents puts a named pipe among a recording's event
// files: replay, state, export and ls each finish (before, each blocked
// for ever on the open) and the commands that read events name it.
func TestCommandsSkipAFIFOInEvents(t *testing.T) {
	root := t.TempDir()
	conv := filepath.Join(root, "0123456789abcdef0123456789abcdef")
	if code, _, errs := runCmd(t, nil, "gen", conv, "--events", "20"); code != 0 {
		t.Fatal(errs)
	}
	fifo := "event-00020-00000000-0000-4000-8000-000000000020.json"
	if err := syscall.Mkfifo(filepath.Join(conv, "events", fifo), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{
		{"replay", conv, "--headless"},
		{"state", conv},
		{"export", conv, "--format", "md"},
		{"ls", root},
	} {
		done := make(chan string, 1)
		go func() {
			_, out, errs := runCmd(t, nil, args...)
			done <- out + errs
		}()
		select {
		case text := <-done:
			if args[0] != "ls" && !strings.Contains(text, fifo+": cannot read: not a regular file (named pipe)") {
				t.Errorf("%v does not name the FIFO:\n%s", args, text)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%v blocked on the FIFO", args)
		}
	}
}
