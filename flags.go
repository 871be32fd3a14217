package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"ohwatch/headless"
)

// newFlagSet returns a flag set that reports errors instead of exiting, so
// every command maps bad usage to exit code 2 itself.
func newFlagSet(name, usageLine string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: ohwatch %s\n\nFlags:\n", usageLine)
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses flags wherever they stand among the arguments (Go's flag
// package stops at the first positional one), and returns the positional
// arguments in order. -h returns flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// usageExit turns a parse error into the exit code: 0 for -h, 2 otherwise.
func usageExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return exitUsage
}

// parseCommand parses a command's arguments and checks the positional ones
// with valid; on failure it has printed what is wrong and returns the exit
// code to end with (0 for -h, 2 otherwise).
func parseCommand(fs *flag.FlagSet, args []string, valid func(pos []string) bool) (pos []string, code int, ok bool) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return nil, usageExit(err), false
	}
	if !valid(pos) {
		fs.Usage()
		return nil, exitUsage, false
	}
	return pos, 0, true
}

// interruptible returns a context cancelled by Ctrl-C or SIGTERM, so every
// command cleans up (sockets, sandboxes, recordings) before it exits.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// viewFlags are the flags shared by the commands that show a conversation:
// demo, watch, cloud and replay.
type viewFlags struct {
	headless     bool
	json         bool
	record       string
	watchTimeout time.Duration
	confirmGrace time.Duration
	logFile      string
	otlp         otlpFlags
}

func (v *viewFlags) bind(fs *flag.FlagSet) {
	fs.BoolVar(&v.headless, "headless", false, "print lines instead of the TUI (automatic when stdout is not a terminal)")
	fs.BoolVar(&v.json, "json", false, "with --headless: print JSONL (one object per line)")
	fs.StringVar(&v.record, "record", "", "write every event as it arrives to `DIR` (SDK layout)")
	fs.DurationVar(&v.watchTimeout, "watch-timeout", 0, "give up (exit 5) when no terminal state is reached within this `duration` (0: never)")
	fs.DurationVar(&v.confirmGrace, "confirm-grace", headless.DefaultConfirmGrace, "how long a provisional finished waits for a full_state before REST is asked")
	fs.StringVar(&v.logFile, "log", "", "write diagnostics to `FILE` (the TUI never logs to the terminal)")
	v.otlp.bind(fs)
}

// useHeadless says whether to print lines rather than open the TUI.
func (v *viewFlags) useHeadless(env *environment) bool {
	return v.headless || v.json || !env.isTerminal
}

// logger returns the slog logger of --log, or one that discards. The
// returned close function is always safe to call.
func (v *viewFlags) logger() (*slog.Logger, func(), error) {
	if v.logFile == "" {
		return slog.New(slog.DiscardHandler), func() {}, nil
	}
	f, err := os.OpenFile(v.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--log: %w", err)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})), func() { f.Close() }, nil
}
