package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"ohwatch/headless"
	"ohwatch/tui"
)

// TestTUIExitCodes: the TUI exits by the headless table — a signal 128
// plus its number, Ctrl-C 130, the watch timeout 5, q 0 — and a TUI that
// could not run says why and exits 7, never 1 (the conversation ended in
// error).
func TestTUIExitCodes(t *testing.T) {
	signalled := func(sig syscall.Signal) context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(interruption{sig: sig})
		return ctx
	}
	timedOut, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name       string
		ctx, run   context.Context
		err        error
		code       int
		saysFailed bool
	}{
		{"q", context.Background(), nil, nil, 0, false},
		{"ctrl+c", context.Background(), nil, tui.ErrInterrupted, headless.ExitInterrupted, false},
		{"SIGINT", signalled(syscall.SIGINT), nil, nil, 130, false},
		{"SIGTERM", signalled(syscall.SIGTERM), nil, nil, 143, false},
		{"SIGHUP", signalled(syscall.SIGHUP), nil, errors.New("read /dev/tty: input/output error"), 129, false},
		{"watch timeout", context.Background(), timedOut, nil, headless.ExitNoTerminal, false},
		{"no terminal", context.Background(), nil, errors.New("open /dev/tty: no such device"), headless.ExitTUIFailed, true},
		{"never connected", context.Background(), nil, fmt.Errorf("%w: nothing listens at http://127.0.0.1:9", tui.ErrUnreachable), headless.ExitUnreachable, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := tc.run
			if run == nil {
				run = tc.ctx
			}
			var stderr bytes.Buffer
			if code := tuiExit(tc.ctx, run, tc.err, &stderr); code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if says := strings.Contains(stderr.String(), "terminal UI failed"); says != tc.saysFailed {
				t.Errorf("stderr %q", stderr.String())
			}
		})
	}
}
