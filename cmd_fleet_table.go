package main

import (
	"context"
	"strings"

	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
)

// table shows the fleet in the table, where enter opens a conversation in
// the full monitor (loaded again from its source, live) and esc comes
// back with every other conversation still streaming; the conversation
// left is closed, its events dropped. It returns the exit
// code as the TUI of one conversation does.
func (fl *builtFleet) table(ctx context.Context, env *environment, cfg *fleetConfig, feed <-chan []model.FleetUpdate) int {
	themeMode, err := cfg.theme.resolve(env.getenv)
	if err != nil {
		return reportUsage(env.stderr, "fleet", usageErr(err.Error(), ""))
	}
	err = tui.RunFleet(ctx, fl.tableOptions(ctx, env, cfg, feed, themeMode))
	return tuiExit(ctx, ctx, err, env.stderr)
}

// tableOptions wires the fleet's sources to the table: its feed, and how
// a conversation is opened (and a paused one resumed) for the full
// monitor.
func (fl *builtFleet) tableOptions(ctx context.Context, env *environment, cfg *fleetConfig, feed <-chan []model.FleetUpdate, themeMode theme.Mode) tui.FleetOptions {
	// The conversation opened lives until the person goes back to the
	// table (the view's context) or the fleet ends (the program's).
	opening := func(open func(context.Context, model.ConversationRef) (session, error)) func(context.Context, model.ConversationRef) (tui.Options, error) {
		return func(viewCtx context.Context, ref model.ConversationRef) (tui.Options, error) {
			sessCtx, end := context.WithCancel(ctx)
			stop := context.AfterFunc(viewCtx, end)
			s, err := open(sessCtx, ref)
			if err != nil {
				stop()
				end()
				return tui.Options{}, err
			}
			return cfg.guards.into(s.tuiOptions(env, !cfg.noNotify, themeMode)), nil
		}
	}
	opts := tui.FleetOptions{
		Feed:    feed,
		Where:   strings.Join(fl.where, ", "),
		Open:    opening(fl.open),
		Notify:  !cfg.noNotify && env.isTerminal,
		NoColor: env.getenv("NO_COLOR") != "",
		Theme:   themeMode,
		Steer:   fleetSteer(cfg, env),
		Guards:  cfg.guards.rules,
	}
	if len(fl.resumers) > 0 {
		opts.Resume = opening(fl.resume)
	}
	return opts
}
