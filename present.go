package main

import (
	"context"
	"fmt"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// session is one conversation on its way to the screen or to headless
// lines: where its events come from and what may be done with it.
type session struct {
	title  string
	source string
	log    *reducer.Log
	feed   <-chan model.Batch
	live   bool
	// recording: the feed is a finished recording (replay): its end decides.
	recording bool
	// confirm asks the source for the current status (REST, or
	// base_state.json when following a directory); nil when there is none.
	confirm func(ctx context.Context) (string, error)
	// confirmSource names what confirm asks ("rest", "base_state.json").
	confirmSource string
	controls      tui.Controls
	// traceID is what the --otlp trace id is derived from: the
	// conversation id, else the recording's name.
	traceID string
}

// present runs a session headless or in the TUI, after teeing the feed into
// the --record directory. It returns the exit code.
func present(ctx context.Context, env *environment, vf *viewFlags, s session) int {
	if vf.record != "" {
		rec, err := files.NewRecorder(vf.record)
		if err != nil {
			fmt.Fprintf(env.stderr, "ohwatch: --record: %v\n", err)
			return exitUsage
		}
		// The recorder stops with the session: cancel its goroutine, wait for
		// it, then close the recording (deferred calls run last to first).
		recCtx, stopRec := context.WithCancel(ctx)
		var wait func()
		s.feed, wait = teeRecorder(recCtx, s.feed, rec)
		defer rec.Close()
		defer wait()
		defer stopRec()
	}
	if vf.otlp.on {
		finish, ok := teeOTLP(ctx, env, &vf.otlp, &s)
		if !ok {
			return exitUsage
		}
		defer finish()
	}
	if vf.useHeadless(env) {
		r := headless.Run(ctx, s.log, s.feed, headless.Options{
			Out:           env.stdout,
			JSON:          vf.json,
			Confirm:       s.confirm,
			ConfirmSource: s.confirmSource,
			ConfirmGrace:  vf.confirmGrace,
			WatchTimeout:  vf.watchTimeout,
			Recording:     s.recording,
		})
		return r.Exit
	}
	runCtx := ctx
	if vf.watchTimeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, vf.watchTimeout)
		defer cancel()
	}
	err := tui.Run(runCtx, tui.Options{
		Title:    s.title,
		Source:   s.source,
		Log:      s.log,
		Feed:     s.feed,
		Live:     s.live,
		Controls: s.controls,
		Export:   exporter(s.title, s.log),
		Pager:    env.getenv("PAGER"),
		NoColor:  env.getenv("NO_COLOR") != "",
	})
	switch {
	case err != nil:
		fmt.Fprintf(env.stderr, "ohwatch: %v\n", err)
		return 1
	case ctx.Err() != nil:
		return headless.ExitInterrupted
	case runCtx.Err() != nil:
		return headless.ExitNoTerminal
	}
	// The user quit: an interactive session ends well however far the
	// conversation got; scripts ask with --headless.
	return 0
}
