package conversation

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui"
)

// New builds the root model of one conversation: a router whose root is
// the conversation's view.
func New(opts Options) *tui.Model { return tui.NewModel(NewConversation(opts)) }

// Run shows the TUI until the user quits or ctx is cancelled.
// Options.NoColor (the caller reads NO_COLOR) turns colours off. Signals
// are the caller's:
// they cancel ctx, which ends the program and restores the terminal.
func Run(ctx context.Context, opts Options) error {
	return run(ctx, opts, tui.ProgramColours(&opts.Profile)...)
}

// run is Run with extra program options (tests give it their input and
// output).
func run(ctx context.Context, opts Options, extra ...tea.ProgramOption) error {
	return tui.RunModel(ctx, New(opts), extra...)
}
