package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"ohwatch/internal/fixtures"
)

func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for name, f := range map[string]*os.File{"pipe": w, "file": file, "/dev/null (a character device)": null} {
		if isTerminal(f) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
	if pty := openPTY(t); !isTerminal(pty) {
		t.Error("a pseudo-terminal is not taken for a terminal")
	}
}

// openPTY opens the terminal side of a new pseudo-terminal pair, or skips
// when the system has none.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	fd := int(ptmx.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	pts, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the pty: %v", err)
	}
	t.Cleanup(func() { pts.Close() })
	return pts
}

// TestReplayToDevNullRunsHeadless runs the real binary with stdout on
// /dev/null: it must print the headless lines there and end by itself,
// not start a TUI nobody sees.
func TestReplayToDevNullRunsHeadless(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := ohwatchBinary(t)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	cmd := exec.Command(bin, "replay", fixtures.Path(t, fixtures.Echo))
	cmd.Stdout = null
	cmd.Stdin = nil
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			t.Fatalf("replay > /dev/null: exit %d (%v)", code, err)
		}
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("replay > /dev/null did not end: a TUI is waiting for a key")
	}
}
