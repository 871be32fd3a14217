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
		defer rec.Close()
		s.feed = teeRecorder(s.feed, rec)
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
	if vf.watchTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, vf.watchTimeout)
		defer cancel()
	}
	err := tui.Run(ctx, tui.Options{
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
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch: %v\n", err)
		return 1
	}
	return exitForState(s.log.Latest())
}

// exitForState is the exit code a session ends with when the user quits
// the TUI: the same table as headless, by the state the log reached.
func exitForState(s reducer.State) int {
	switch s.Status {
	case model.StatusFinished:
		if s.StatusConfirmed {
			return headless.ExitFinished
		}
	case model.StatusError:
		return headless.ExitError
	case model.StatusStuck:
		return headless.ExitStuck
	}
	return headless.ExitNoTerminal
}
