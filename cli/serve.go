package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"ohwatch/client/files"
	"ohwatch/format"
	"ohwatch/model"
	"ohwatch/serve"
	"ohwatch/session"
)

// serveUsage is the usage line of `ohwatch serve`.
const serveUsage = "serve PATH [--addr 127.0.0.1:8000] [--speed X] [--confirm-hold until-answered|DURATION] [--stagger DURATION] [--loop] [--fault SPEC]..."

// serveConfig is what `ohwatch serve` was asked to do.
type serveConfig struct {
	path    string
	addr    string
	speed   float64
	logFile string
	faults  serve.Faults
	// confirmHold is how long the replay waits at
	// waiting_for_confirmation for an answer (not at --speed 0).
	confirmHold time.Duration
	// stagger starts each conversation of a root this long after the one
	// before; loop restarts an ended run as a new conversation.
	stagger time.Duration
	loop    bool
	// supersedes imitates a server where a message rejects the pending
	// actions (upstream PR #5110) instead of approving them (1.43.1).
	supersedes bool
}

// options are the server options cfg asks for.
func (cfg serveConfig) options(key string, logger *slog.Logger) serve.Options {
	o := serve.Options{Key: key, Speed: cfg.speed, Logger: logger, Inject: cfg.faults, Stagger: cfg.stagger, Loop: cfg.loop,
		Continue: generatedContinuation, MessageSupersedes: cfg.supersedes}
	if cfg.speed > 0 {
		o.ConfirmHold = cfg.confirmHold
	}
	return o
}

// faultFlag collects repeated --fault specifications into one serve.Faults.
type faultFlag struct{ f *serve.Faults }

func (v faultFlag) String() string {
	if v.f == nil || v.f.String() == "none" {
		return ""
	}
	return v.f.String()
}

func (v faultFlag) Set(spec string) error { return serve.ParseFault(spec, v.f) }
func (v faultFlag) Type() string          { return "SPEC" }

// holdValue is --confirm-hold: until-answered or a duration.
type holdValue struct{ *serve.HoldFlag }

func (holdValue) Type() string { return "until-answered|DURATION" }

func newServe(env *session.Env) *cobra.Command {
	return serveCommand(func(cfg serveConfig) error {
		ctx, stop := session.Interruptible()
		defer stop()
		return exit(serveRecordings(ctx, env, cfg))
	})
}

// serveCommand is `ohwatch serve`, which hands what it was asked to do to
// then once the arguments are checked.
func serveCommand(then func(serveConfig) error) *cobra.Command {
	cfg := serveConfig{confirmHold: serve.UntilAnswered}
	cmd := &cobra.Command{
		Use:   serveUsage,
		Short: "serve a recording (or a root of several) through the agent-server protocol",
		RunE: func(cmd *cobra.Command, p []string) error {
			if err := checkServe(cfg, p); err != nil {
				return err
			}
			cfg.path = p[0]
			return then(cfg)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8000", "listen `address`")
	fs.Float64Var(&cfg.speed, "speed", 1, "replay pace: 1 recorded, 10 ten times faster, 0 everything at once")
	fs.StringVar(&cfg.logFile, "log", "", "write the server log to `FILE` (default: stderr)")
	fs.Var(holdValue{(*serve.HoldFlag)(&cfg.confirmHold)}, "confirm-hold", "at waiting_for_confirmation, wait for respond_to_confirmation until answered, as a real server does, or only this `DURATION` before accepting (said in the log; for tests); not with --speed 0")
	fs.DurationVar(&cfg.stagger, "stagger", 0, "start each conversation of a root this `DURATION` after the one before (in the order listed); until its start a conversation is not listed, as one not yet created")
	fs.BoolVar(&cfg.loop, "loop", false, "when a conversation's run ends, start it again as a new conversation (new id, fresh event ids, same content); the ended one stays listed")
	fs.BoolVar(&cfg.supersedes, "message-supersedes", false, "imitate a server with upstream PR #5110: a message sent while actions wait for confirmation rejects them (\"superseded\") instead of approving them, as 1.43.1 does; /server_info then names no release ("+serve.SupersedingVersion+")")
	fs.Var(faultFlag{&cfg.faults}, "fault", "inject a fault, to test a client against a misbehaving server (repeatable). `SPEC` is one of:\n"+serve.FaultSpecs)
	return cmd
}

// checkServe checks serve's arguments.
func checkServe(cfg serveConfig, p []string) error {
	switch {
	case cfg.speed < 0:
		return usageErr(fmt.Sprintf("--speed must be 0 or more, not %g", cfg.speed), "--speed 0 sends everything at once")
	case cfg.stagger < 0:
		return usageErr(fmt.Sprintf("--stagger must be 0 or more, not %s", cfg.stagger), "--stagger 10s starts a conversation every ten seconds")
	case cfg.loop && cfg.speed == 0:
		return usageErr("--loop needs a pace: at --speed 0 a run ends as it starts and would restart forever", "--loop --speed 10")
	}
	if _, _, err := net.SplitHostPort(cfg.addr); err != nil {
		return usageErr(fmt.Sprintf("--addr %q is not HOST:PORT", cfg.addr), "--addr 127.0.0.1:8000 (port 0 picks a free one)")
	}
	if err := onePath(p, "PATH of the recording (or root of several) to serve", "ohwatch serve PATH [--addr 127.0.0.1:8000]"); err != nil {
		return err
	}
	return existingPath(p[0])
}

// serveRecordings serves cfg's recordings until ctx ends.
func serveRecordings(ctx context.Context, env *session.Env, cfg serveConfig) int {
	logger, closeLog, err := session.OpenLog(cfg.logFile, nil)
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch serve: %v\n", err)
		return exitUsage
	}
	defer closeLog()
	convs, err := loadServed(ctx, cfg.path)
	if err != nil {
		return session.LoadFailed(ctx, env, "serve", err)
	}
	srv := serve.New(cfg.options(env.Getenv("SESSION_API_KEY"), logger))
	for _, c := range convs {
		srv.Add(c.ID, c.Base, c.Events)
		for _, w := range c.Warnings {
			fmt.Fprintf(env.Stderr, "ohwatch serve: %s: %s\n", c.ID, w)
		}
	}
	url, err := srv.Start(ctx, cfg.addr)
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch serve: %v\n", err)
		return 1
	}
	defer srv.Close()
	auth := "no auth (SESSION_API_KEY unset)"
	if env.Getenv("SESSION_API_KEY") != "" {
		auth = "session key from SESSION_API_KEY"
	}
	fmt.Fprintf(env.Stdout, "serving %d conversation(s) on %s, %s\n", len(convs), url, auth)
	if f := cfg.faults.String(); f != "none" {
		fmt.Fprintf(env.Stdout, "  injecting faults: %s\n", f)
	}
	if cfg.loop {
		fmt.Fprintf(env.Stdout, "  each run that ends starts again as a new conversation (--loop)\n")
	}
	for i, c := range convs {
		fmt.Fprintf(env.Stdout, "  ohwatch watch %s --conversation %s   (%d events%s)\n", url, c.ID, len(c.Events), startsIn(i, cfg.stagger))
	}
	<-ctx.Done()
	return session.InterruptedExit(ctx) // serving ends only by a signal: 128+signal, as every command
}

// startsIn says when the i-th conversation starts under --stagger ("" for
// at once).
func startsIn(i int, stagger time.Duration) string {
	if i == 0 || stagger <= 0 {
		return ""
	}
	return ", starts in " + format.Duration(time.Duration(i)*stagger)
}

// loadServed loads one recording, or every conversation under a root.
func loadServed(ctx context.Context, path string) ([]*files.Conversation, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() && !isOneConversation(path) {
		list, err := files.ListContext(ctx, path)
		if err != nil {
			return nil, err
		}
		var convs []*files.Conversation
		for _, s := range list {
			c, err := loadWithBase(ctx, s.Path)
			if err != nil {
				return nil, err
			}
			c.ID = servedID(c.ID, s.Path)
			convs = append(convs, c)
		}
		if len(convs) == 0 {
			return nil, fmt.Errorf("%s holds no conversations", path)
		}
		return convs, nil
	}
	c, err := loadWithBase(ctx, path)
	if err != nil {
		return nil, err
	}
	c.ID = servedID(c.ID, path)
	return []*files.Conversation{c}, nil
}

// loadWithBase loads a recording with its base state's bytes, which a
// load streams and drops: the server serves them back field for field.
func loadWithBase(ctx context.Context, path string) (*files.Conversation, error) {
	c, err := files.LoadContext(ctx, path)
	if err != nil || c.Base == nil {
		return c, err
	}
	if base, err := files.BaseStateRaw(path); err == nil && base != nil {
		c.Base = base
	}
	return c, nil
}

// servedID is the conversation id a recording is served under: its own
// when it has one, else one derived from its path, stable across runs, in
// the 32-hex form clients expect in URLs.
func servedID(id, path string) string {
	if n := model.NormalizeConversationID(id); len(n) == 32 {
		return n
	}
	sum := sha256.Sum256([]byte(filepath.Base(filepath.Clean(path))))
	return hex.EncodeToString(sum[:16])
}

// isOneConversation says whether dir is one conversation rather than a
// root of several: a conversation directory, or the events/ directory of
// one.
func isOneConversation(dir string) bool {
	return filepath.Base(filepath.Clean(dir)) == "events" || files.IsConversationDir(dir)
}
