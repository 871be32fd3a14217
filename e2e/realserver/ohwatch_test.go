package realserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"ohwatch/internal/e2eproc"
)

// runBound bounds one ohwatch run: a failure limit, not a wait.
const runBound = 120 * time.Second

// result is how an ohwatch run ended.
type result struct {
	stdout, stderr string
	code           int
}

// ohwatchEnv is the environment of an ohwatch run: the server's key from
// SESSION_API_KEY, no colour.
func ohwatchEnv(extra ...string) []string {
	return append(append(os.Environ(), "SESSION_API_KEY="+serverKey, "NO_COLOR=1"), extra...)
}

// ohwatch runs the binary to its end.
func ohwatch(t *testing.T, args ...string) result {
	t.Helper()
	return ohwatchEnvRun(t, ohwatchEnv(), args...)
}

func ohwatchEnvRun(t *testing.T, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, ohwatchBin, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("ohwatch %v: still running after %s\nstdout:\n%s\nstderr:\n%s", args, runBound, r.stdout, r.stderr)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("ohwatch %v: %v", args, err)
	}
	return r
}

// live is an ohwatch run in the background whose output is read as it
// comes, so a test can act on what it printed.
type live struct {
	t    *testing.T
	cmd  *exec.Cmd
	proc *e2eproc.Proc
	errb bytes.Buffer
}

// start runs ohwatch in the background; the test's cleanup kills it if it
// is still running.
func start(t *testing.T, args ...string) *live {
	t.Helper()
	l := &live{t: t}
	l.cmd = exec.Command(ohwatchBin, args...)
	l.cmd.Env = ohwatchEnv()
	l.cmd.Stderr = &l.errb
	out, err := l.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	l.proc = e2eproc.Start(t, l.cmd, out)
	return l
}

// output is every line printed so far.
func (l *live) output() []string { return l.proc.Lines() }

// waitLine waits for a line that holds every one of parts and returns it.
func (l *live) waitLine(parts ...string) string {
	l.t.Helper()
	line, err := l.proc.WaitFor(func(s string) bool { return containsAll(s, parts...) }, runBound)
	switch err {
	case e2eproc.ErrEnded:
		l.t.Fatalf("ohwatch ended (exit %d) without a line holding %q:\n%s\nstderr:\n%s", l.proc.Code(), parts, show(l.output()), l.errb.String())
	case e2eproc.ErrTimeout:
		l.t.Fatalf("no line holding %q after %s:\n%s", parts, runBound, show(l.output()))
	}
	return line
}

// running reports whether the process has not ended.
func (l *live) running() bool { return l.proc.Running() }

// wait waits for the end of the run and returns its exit code.
func (l *live) wait() int {
	l.t.Helper()
	code, ok := l.proc.Wait(runBound)
	if !ok {
		l.t.Fatalf("ohwatch still running after %s:\n%s", runBound, show(l.output()))
	}
	return code
}

// interrupt sends SIGINT (Ctrl-C) and waits for the end.
func (l *live) interrupt() int {
	l.t.Helper()
	_ = l.cmd.Process.Signal(syscall.SIGINT)
	return l.wait()
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// jsonLines decodes the JSONL a --json run printed.
func jsonLines(t *testing.T, lines []string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// splitLines splits output into lines.
func splitLines(s string) []string {
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

// show is output for a failure message: each line cut to 240 bytes, since
// an event's JSON can run to many KiB.
func show(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if len(l) > 240 {
			l = l[:240] + "…"
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
