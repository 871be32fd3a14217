package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"ohwatch/client/agentserver"
	"ohwatch/client/fleetsource"
)

// fleetScale is how much of a large fleet is followed live, and how long a
// headless watch of it may last.
type fleetScale struct {
	maxStreams   int
	maxListed    int
	watchTimeout time.Duration
}

func (s *fleetScale) bind(fs *pflag.FlagSet) {
	fs.IntVar(&s.maxStreams, "max-streams", fleetsource.DefaultMaxStreams, "stream at most `N` conversations of a server (or of Cloud) live at once, the most urgent first (waiting for you, running, just changed); the others (finished, error, stuck, idle) are shown from the listing, asked every --interval")
	fs.IntVar(&s.maxListed, "max-listed", agentserver.DefaultMaxListed, "take at most `N` conversations from one listing of a server (said on stderr when it is cut)")
	fs.DurationVar(&s.watchTimeout, "watch-timeout", 0, "with --headless: give up (exit 5) when the watch has not ended within this `duration` (0: never)")
}

// check refuses bounds that would watch nothing or end before starting.
func (s *fleetScale) check() error {
	if s.maxStreams < 1 {
		return usageErr(fmt.Sprintf("--max-streams must be at least 1, not %d", s.maxStreams), "--max-streams 64 streams the 64 most urgent conversations")
	}
	if s.maxListed < 1 {
		return usageErr(fmt.Sprintf("--max-listed must be at least 1, not %d", s.maxListed), "--max-listed 100000")
	}
	if s.watchTimeout < 0 {
		return usageErr(fmt.Sprintf("--watch-timeout must not be negative, not %s", s.watchTimeout), "--watch-timeout 10m")
	}
	return nil
}
