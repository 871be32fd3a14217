package tui

import (
	"context"
	"os"
)

// RunFleet shows the fleet table, and the conversations opened from it,
// until the user quits or ctx is cancelled; it ends as Run does
// (ErrInterrupted for Ctrl-C). A non-empty NO_COLOR turns colours off.
func RunFleet(ctx context.Context, opts FleetOptions) error {
	if os.Getenv("NO_COLOR") != "" {
		opts.NoColor = true
	}
	return RunScreens(ctx, NewFleet(opts), programColours(&opts.Profile)...)
}
