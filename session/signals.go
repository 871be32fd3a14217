package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"ohwatch/headless"
)

// endSignals are the signals that end a session cleanly: Ctrl-C, a
// polite kill, and a closed terminal (or tmux kill-pane).
var endSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// interruption is the cause of a context cancelled by a signal.
type interruption struct {
	sig syscall.Signal
}

func (i interruption) Error() string { return fmt.Sprintf("interrupted by %s", signalName(i.sig)) }

// ExitCode is the exit code of a process ended by the signal, as a shell
// reports one killed by it: 128 plus the signal's number.
func (i interruption) ExitCode() int { return headless.ExitSignalBase + int(i.sig) }

// signalName names the signals ohwatch handles the way users write them.
func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// Interruptible returns a context cancelled by SIGINT, SIGTERM or SIGHUP,
// alike, so every command stops taking events and cleans up (sockets,
// sandboxes, recordings, the terminal) before it exits; its cause is an
// interruption that carries the exit code (InterruptedExit). After the
// first signal the default action is restored, so a second one ends a
// cleanup that hangs.
func Interruptible() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, endSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			sig, _ := s.(syscall.Signal)
			cancel(interruption{sig: sig})
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel(context.Canceled)
		})
	}
}

// InterruptedExit is the exit code of a session whose context was
// cancelled: 128 plus the signal that did it, else ExitInterrupted.
func InterruptedExit(ctx context.Context) int {
	var in interruption
	if errors.As(context.Cause(ctx), &in) {
		return in.ExitCode()
	}
	return headless.ExitInterrupted
}
