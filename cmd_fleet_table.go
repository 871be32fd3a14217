package main

import (
	"context"
	"strings"

	"ohwatch/model"
	"ohwatch/tui"
)

// table shows the fleet in the table, where enter opens a conversation in
// the full monitor (loaded again from its source, live) and esc comes
// back with every other conversation still streaming. It returns the exit
// code as the TUI of one conversation does.
func (fl *builtFleet) table(ctx context.Context, env *environment, cfg *fleetConfig, feed <-chan []model.FleetUpdate) int {
	themeMode, err := cfg.theme.resolve(env.getenv)
	if err != nil {
		return reportUsage(env.stderr, "fleet", usageErr(err.Error(), ""))
	}
	err = tui.RunFleet(ctx, tui.FleetOptions{
		Feed:  feed,
		Where: strings.Join(fl.where, ", "),
		// The conversation opened lives as long as the fleet: leaving it
		// for the table keeps it streaming.
		Open: func(_ context.Context, ref model.ConversationRef) (tui.Options, error) {
			s, err := fl.open(ctx, ref)
			if err != nil {
				return tui.Options{}, err
			}
			return s.tuiOptions(env, !cfg.noNotify, themeMode), nil
		},
		Notify:  !cfg.noNotify && env.isTerminal,
		NoColor: env.getenv("NO_COLOR") != "",
		Theme:   themeMode,
	})
	return tuiExit(ctx, ctx, err, env.stderr)
}
