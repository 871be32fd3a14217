package cli

import (
	"fmt"
	"time"

	"ohwatch/format"
	"ohwatch/serve"
	"ohwatch/session"
)

// demoHold is how long the demo's server waits at a confirmation: in the
// TUI until the user answers, as a real server does; headless, where
// nobody can answer, six recorded seconds before it accepts by itself.
func demoHold(headless bool, speed float64) time.Duration {
	if !headless {
		return serve.UntilAnswered
	}
	return time.Duration(float64(6*time.Second) / speed)
}

// demoHoldPassed says on stderr that the demo's server accepted a waiting
// action itself, so a headless demo never reads as if someone approved it.
func demoHoldPassed(env *session.Env) func(string, time.Duration) {
	return func(_ string, hold time.Duration) {
		fmt.Fprintf(env.Stderr, "ohwatch demo: nobody can answer in --headless, so the demo's server accepted the waiting action itself after %s\n", format.Duration(hold))
	}
}
