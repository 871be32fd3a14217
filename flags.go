package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"ohwatch/headless"
	"ohwatch/model"
)

// newFlagSet returns a flag set that reports errors instead of exiting, so
// every command maps bad usage to exit code 2 itself. Its Usage prints the
// command's help, flags spelled --flag (see printHelp).
func newFlagSet(name, usageLine string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printHelp(stderr, fs, usageLine) }
	return fs
}

// parseArgs parses flags wherever they stand among the arguments (Go's flag
// package stops at the first positional one), and returns the positional
// arguments in order. -h returns flag.ErrHelp. It prints nothing: the
// caller says what was wrong.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
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

// parseCommand parses a command's arguments and checks the positional ones
// with valid; on failure it has printed what is wrong and returns the exit
// code to end with (0 for -h, 2 otherwise). Prefer checkCommand, whose
// check names the mistake.
func parseCommand(fs *flag.FlagSet, args []string, valid func(pos []string) bool) (pos []string, code int, ok bool) {
	return checkCommand(fs, args, func(p []string) error {
		if !valid(p) {
			return usageErr("wrong arguments", "")
		}
		return nil
	})
}

// checkCommand parses a command's arguments and checks them with check,
// which returns nil or a *usageError naming the mistake. On failure it has
// printed one line naming the mistake and a hint (or, for -h, the help),
// and returns the exit code to end with: 0 for -h, 2 otherwise.
func checkCommand(fs *flag.FlagSet, args []string, check func(pos []string) error) (pos []string, code int, ok bool) {
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.Usage()
		return nil, 0, false
	}
	if err == nil {
		err = check(pos)
	}
	if err != nil {
		return nil, reportUsage(fs.Output(), fs.Name(), err), false
	}
	return pos, 0, true
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
	// noNotify turns off the bell and desktop notifications of the TUI.
	noNotify bool
	// theme picks the TUI's palette.
	theme themeFlag
	// secrets, when set, are redacted from the --log file.
	secrets *model.Secrets
	otlp    otlpFlags
	guards  guardFlag
}

func (v *viewFlags) bind(fs *flag.FlagSet) {
	fs.BoolVar(&v.headless, "headless", false, "print a line per event, each followed by its status line when it changes the status, instead of the TUI (automatic when stdout is not a terminal); the exit code says how the conversation ended")
	fs.BoolVar(&v.json, "json", false, "with --headless: print JSONL, one object per event, status change and awaited action, then the result with its verdict")
	fs.StringVar(&v.record, "record", "", "write every event as it arrives to `DIR` (SDK layout; one conversation per directory, locked while recording)")
	fs.DurationVar(&v.watchTimeout, "watch-timeout", 0, "give up (exit 5) when no terminal state is reached within this `duration` (0: never)")
	fs.DurationVar(&v.confirmGrace, "confirm-grace", headless.DefaultConfirmGrace, "how long a provisional finished waits for a full_state before REST is asked")
	fs.StringVar(&v.logFile, "log", "", "write diagnostics to `FILE` (the TUI never logs to the terminal)")
	fs.BoolVar(&v.noNotify, "no-notify", false, "no bell and no desktop notification (OSC 9/777) when the agent needs you")
	fs.Var(&v.theme, "theme", themeUsage)
	fs.Var(&v.guards, "guard", guardUsage)
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
	var w io.Writer = f
	closeLog := func() { f.Close() }
	if v.secrets != nil {
		rw := &redactingWriter{w: f, secrets: v.secrets}
		w, closeLog = rw, func() { rw.Flush(); f.Close() }
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})), closeLog, nil
}
