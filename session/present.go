package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	convui "ohwatch/tui/conversation"
)

// conversation is one conversation on its way to the screen or to
// headless lines: where its events come from and what may be done with it.
type conversation struct {
	// id is the conversation's id, "" when unknown: --record refuses a
	// directory that holds another.
	id     string
	title  string
	source string
	log    *reducer.Log
	feed   <-chan model.Batch
	live   bool
	// retry starts a live watch that gave up again over the same feed
	// (the TUI's r); nil when the source cannot. firstWait is --wait.
	retry     func() bool
	firstWait time.Duration
	// server names a live source's address in connection banners.
	server string
	// recording: the feed is a finished recording (replay): its end decides.
	recording bool
	// fromFiles: the events were read from files, which no client cut the
	// keys out of (see redactedFeed).
	fromFiles bool
	// branch is the id of an event whose branch a recording's headless
	// lines follow; "" for HEAD's path.
	branch string
	// confirm asks the source for the current status (REST, or
	// base_state.json when following a directory); nil when there is none.
	confirm func(ctx context.Context) (string, error)
	// confirmSource names what confirm asks ("rest", "base_state.json").
	confirmSource string
	// confirmPoll, when set, asks confirm at once and then at this
	// interval while a finished is provisional (a local file is cheap).
	confirmPoll time.Duration
	controls    convui.Controls
	// branching forks and navigates a live agent-server conversation; nil
	// for other sources.
	branching convui.Branching
	// links knows the conversations forked or launched from this one and
	// opens them; nil for sources that open none.
	links convui.Links
	// traceID is what the --otlp trace id is derived from: the
	// conversation id, else the recording's name.
	traceID string
}

// present runs a conversation headless or in the TUI, after teeing the
// feed into the --record directory. It returns the exit code.
func present(ctx context.Context, env *Env, o Options, s conversation) (code int) {
	// The log lives until the last deferred finisher has run: events read
	// into its space (Replay) lie in memory that goes with it.
	defer runtime.KeepAlive(s.log)
	if s.fromFiles && o.Secrets.Any() {
		s.feed = redactedFeed(ctx, o.Secrets, s.feed)
		s.title = o.Secrets.Redact(s.title)
	}
	if o.Record != "" {
		rec, err := openRecording(ctx, o.Record, s.id, env.RecordWrite)
		if err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch: --record: %v\n", err)
			if ctx.Err() != nil {
				return InterruptedExit(ctx)
			}
			return headless.ExitUsage
		}
		// The recorder stops with the session: cancel its goroutine, wait for
		// it, then finish the recording, which may change the exit code.
		recCtx, stopRec := context.WithCancel(ctx)
		var wait func()
		s.feed, wait = rec.tee(recCtx, s.feed)
		defer func() {
			stopRec()
			wait()
			code = rec.finish(env.Stderr, code)
		}()
	}
	if o.OTLP.On {
		finish, ok := teeOTLP(ctx, env, o.OTLP, &s, !o.Headless)
		if !ok {
			return headless.ExitUsage
		}
		defer finish()
	}
	if o.Headless {
		r := headless.Run(ctx, s.log, s.feed, headless.Options{
			Out:           env.Stdout,
			JSON:          o.JSON,
			Confirm:       s.confirm,
			ConfirmSource: s.confirmSource,
			ConfirmGrace:  o.ConfirmGrace,
			ConfirmPoll:   s.confirmPoll,
			WatchTimeout:  o.WatchTimeout,
			Recording:     s.recording,
			Branch:        s.branch,
			Guards:        guardSet(o.Guards),
			Act:           guardAct(s.controls),
		})
		return r.Exit
	}
	runCtx := ctx
	if o.WatchTimeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, o.WatchTimeout)
		defer cancel()
	}
	opts := s.tuiOptions(env, o.Notify, o.Theme)
	opts.Guards = guardSet(o.Guards)
	opts.Profile = env.colourProfile()
	err := convui.Run(runCtx, opts)
	return tuiExit(ctx, runCtx, err, env.Stderr)
}

// tuiOptions are the session's options for the full monitor: the TUI of
// one conversation, and a conversation opened from the fleet table.
func (s conversation) tuiOptions(env *Env, notify bool, themeMode theme.Mode) convui.Options {
	exp := tuiExport{id: s.id, title: s.title, log: s.log, recorded: s.recording, getenv: env.Getenv, now: time.Now}
	return convui.Options{
		Title:        s.title,
		Source:       s.source,
		Log:          s.log,
		Feed:         s.feed,
		Live:         s.live,
		Server:       s.server,
		Conversation: s.id,
		Notify:       notify && env.IsTerminal,
		Tmux:         env.Getenv("TMUX") != "",
		Controls:     s.controls,
		Branching:    s.branching,
		Links:        s.links,
		Export:       exp.write,
		ExportPath:   exp.defaultPath,
		Pager:        env.Getenv("PAGER"),
		Editor:       cmp.Or(env.Getenv("VISUAL"), env.Getenv("EDITOR")),
		OpenFile:     files.OpenRegular,
		Retry:        s.retry,
		FirstWait:    s.firstWait,
		NoColor:      env.NoColor,
		Theme:        themeMode,
		KeyMap:       keyMap(env.Config),
	}
}

// tuiExit is the exit code of a TUI session, by the same table as
// headless: a signal gives 128 plus its number, Ctrl-C in the TUI 130, the
// watch timeout 5, a live session that never connected or whose key was
// rejected 4 (the cause on stderr), and q 0 otherwise — an interactive
// session ends well however far the conversation got; scripts ask with
// --headless. A TUI that could not run says why and exits ExitTUIFailed, never 1, which means the
// conversation ended in error.
func tuiExit(ctx, runCtx context.Context, err error, stderr io.Writer) int {
	switch {
	case ctx.Err() != nil:
		return InterruptedExit(ctx)
	case errors.Is(err, tui.ErrInterrupted):
		return headless.ExitInterrupted
	case runCtx.Err() != nil:
		return headless.ExitNoTerminal
	case errors.Is(err, tui.ErrUnreachable):
		// Never connected, or the key was rejected: the cause, exit 4.
		fmt.Fprintf(stderr, "ohwatch: %v\n", err)
		return headless.ExitUnreachable
	case err != nil:
		fmt.Fprintf(stderr, "ohwatch: the terminal UI failed: %v\n", err)
		return headless.ExitTUIFailed
	}
	return 0
}
