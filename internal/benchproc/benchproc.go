// Package benchproc runs, for benchmarks, a server in a process of its own:
// the test binary itself, told by an environment variable to serve instead
// of testing (see a package's TestMain). The process CPU and memory a
// benchmark then measures are the client's alone.
package benchproc

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Start runs the test binary with env=value and no test, waits for the
// first line it prints (what the server says about itself: its URL, …)
// and returns it; stop closes its stdin, which ends it, and waits.
func Start(tb testing.TB, env, value string) (line string, stop func()) {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+value)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	line, err = bufio.NewReader(out).ReadString('\n')
	if err != nil {
		tb.Fatalf("bench server: %v", err)
	}
	return strings.TrimSpace(line), func() { in.Close(); cmd.Wait() }
}
