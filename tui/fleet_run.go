package tui

import (
	"context"
)

// RunFleet shows the fleet table, and the conversations opened from it,
// until the user quits or ctx is cancelled; it ends as Run does
// (ErrInterrupted for Ctrl-C). FleetOptions.NoColor turns colours off.
func RunFleet(ctx context.Context, opts FleetOptions) error {
	return RunScreens(ctx, NewFleet(opts), programColours(&opts.Profile)...)
}
