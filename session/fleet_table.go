package session

import (
	"context"
	"strings"

	"ohwatch/model"
	"ohwatch/tui"
	convui "ohwatch/tui/conversation"
	"ohwatch/tui/fleetview"
)

// table shows the fleet in the table, where enter opens a conversation in
// the full monitor (loaded again from its source, live) and esc comes
// back with every other conversation still streaming; the conversation
// left is closed, its events dropped. It returns the exit code as the TUI
// of one conversation does.
func (fl *Fleet) table(ctx context.Context, env *Env, o FleetOptions, feed <-chan []model.FleetUpdate) int {
	err := fleetview.RunFleet(ctx, fl.tableOptions(ctx, env, o, feed))
	return tuiExit(ctx, ctx, err, env.Stderr)
}

// Table is the fleet's table over its sources watched until ctx ends,
// wired as `fleet` shows it (opening, resuming, the rows' controls), for
// a program the caller runs: the end-to-end suites drive it on a
// terminal of their own.
func (fl *Fleet) Table(ctx context.Context, env *Env, o FleetOptions) *tui.Model {
	return tui.NewModel(fleetview.NewFleet(fl.tableOptions(ctx, env, o, fl.watch(ctx))))
}

// tableOptions wires the fleet's sources to the table: its feed, and how
// a conversation is opened (and a paused one resumed) for the full
// monitor.
func (fl *Fleet) tableOptions(ctx context.Context, env *Env, o FleetOptions, feed <-chan []model.FleetUpdate) fleetview.FleetOptions {
	// The conversation opened lives until the person goes back to the
	// table (the view's context) or the fleet ends (the program's).
	profile := env.colourProfile()
	opening := func(open func(context.Context, model.ConversationRef) (conversation, error)) func(context.Context, model.ConversationRef) (convui.Options, error) {
		return func(viewCtx context.Context, ref model.ConversationRef) (convui.Options, error) {
			sessCtx, end := context.WithCancel(ctx)
			stop := context.AfterFunc(viewCtx, end)
			s, err := open(sessCtx, ref)
			if err != nil {
				stop()
				end()
				return convui.Options{}, err
			}
			opts := s.tuiOptions(env, o.Notify, o.Theme)
			opts.Guards = guardSet(o.Guards)
			opts.Profile = profile
			return opts, nil
		}
	}
	opts := fleetview.FleetOptions{
		Feed:    feed,
		Where:   strings.Join(fl.where, ", "),
		Open:    opening(fl.open),
		Notify:  o.Notify && env.IsTerminal,
		Tmux:    env.Getenv("TMUX") != "",
		NoColor: env.NoColor,
		Profile: profile,
		Theme:   o.Theme,
		Steer:   fl.steer(o, env),
		Guards:  o.Guards,
		KeyMap:  fleetKeyMap(env.Config),
		Columns: env.Config.FleetColumns(),
	}
	order := env.Config.FleetOrder()
	opts.Order = &order
	if len(fl.resumers) > 0 {
		opts.Resume = opening(fl.resume)
	}
	return opts
}
