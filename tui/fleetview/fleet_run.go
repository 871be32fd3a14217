package fleetview

import (
	"context"

	"ohwatch/tui"
)

// RunFleet shows the fleet table, and the conversations opened from it,
// until the user quits or ctx is cancelled; it ends as Run does
// (ErrInterrupted for Ctrl-C). FleetOptions.NoColor turns colours off.
func RunFleet(ctx context.Context, opts FleetOptions) error {
	return tui.RunScreens(ctx, NewFleet(opts), tui.ProgramColours(&opts.Profile)...)
}
