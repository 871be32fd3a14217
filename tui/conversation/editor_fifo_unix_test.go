//go:build unix

package conversation

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"ohwatch/client/files"
	"ohwatch/tui"
)

// TestEditRefusesWhatIsNotAFile: a FIFO (which would block the editor for
// ever) and a device such as /dev/tty (which would fight the TUI for keys)
// are refused with a line, at once, before any editor runs.
func TestEditRefusesWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "x.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, path := range []string{fifo, os.DevNull} {
		m := newModel(Options{Log: editLog(t, path), OpenFile: files.OpenRegular}, 120, 40)
		m = jumpTo(t, m, tui.Ordinal(m.Log.Len()-1))
		_, cmd := press(t, m, "E")
		msg := cmd() // a FIFO's open must not block here
		if m.Update(msg); !strings.Contains(m.View(), "not a regular file") || !strings.Contains(m.View(), "not opened") {
			t.Errorf("%s: the footer does not say why:\n%s", path, m.View())
		}
	}
}
