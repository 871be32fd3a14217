// Package e2eproc runs a program in the background for the end-to-end
// suites and collects the lines of one of its streams as they come, so a
// test can wait for what the program said before it acts.
package e2eproc

import (
	"bufio"
	"errors"
	"io"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// Proc is a program running in the background.
type Proc struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	news  chan struct{} // signalled on every line and at the end
	done  chan struct{}
	code  int
}

// Start starts cmd and collects the lines of out, a pipe of cmd's taken
// before (StdoutPipe or StderrPipe). The test's cleanup kills the program
// if it still runs.
func Start(t testing.TB, cmd *exec.Cmd, out io.Reader) *Proc {
	t.Helper()
	p := &Proc{cmd: cmd, news: make(chan struct{}, 1), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go p.collect(out)
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// collect reads out to its end, then waits for the program.
func (p *Proc) collect(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		p.mu.Lock()
		p.lines = append(p.lines, sc.Text())
		p.mu.Unlock()
		p.signal()
	}
	var ee *exec.ExitError
	if errors.As(p.cmd.Wait(), &ee) {
		p.code = ee.ExitCode()
	}
	close(p.done)
	p.signal()
}

func (p *Proc) signal() {
	select {
	case p.news <- struct{}{}:
	default:
	}
}

// Lines is every line collected so far.
func (p *Proc) Lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

// Code is the exit code once the program has ended (0 for a clean end).
func (p *Proc) Code() int { return p.code }

// Running reports whether the program has not ended.
func (p *Proc) Running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Wait waits up to bound for the end; ok is false when it did not come.
func (p *Proc) Wait(bound time.Duration) (code int, ok bool) {
	select {
	case <-p.done:
		return p.code, true
	case <-time.After(bound):
		return -1, false
	}
}

// ErrEnded and ErrTimeout are why WaitFor found no line.
var (
	ErrEnded   = errors.New("the program ended without such a line")
	ErrTimeout = errors.New("no such line in time")
)

// WaitFor waits up to bound for a line that match accepts and returns the
// first one, or ErrEnded when the program ended without one, or
// ErrTimeout.
func (p *Proc) WaitFor(match func(string) bool, bound time.Duration) (string, error) {
	deadline := time.After(bound)
	find := func() (string, bool) {
		for _, line := range p.Lines() {
			if match(line) {
				return line, true
			}
		}
		return "", false
	}
	for {
		if line, ok := find(); ok {
			return line, nil
		}
		select {
		case <-p.news:
		case <-p.done:
			if line, ok := find(); ok {
				return line, nil
			}
			return "", ErrEnded
		case <-deadline:
			return "", ErrTimeout
		}
	}
}
