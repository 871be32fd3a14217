package main

import (
	"fmt"
	"time"

	"ohwatch/format"
	"ohwatch/serve"
)

// demoHold is how long the demo's server waits at a confirmation: in the
// TUI until the user answers, as a real server does; headless, where
// nobody can answer, six recorded seconds before it accepts by itself.
func demoHold(vf *viewFlags, env *environment, speed float64) time.Duration {
	if !vf.useHeadless(env) {
		return serve.UntilAnswered
	}
	return time.Duration(float64(6*time.Second) / speed)
}

// demoHoldPassed says on stderr that the demo's server accepted a waiting
// action itself, so a headless demo never reads as if someone approved it.
func demoHoldPassed(env *environment) func(string, time.Duration) {
	return func(_ string, hold time.Duration) {
		fmt.Fprintf(env.stderr, "ohwatch demo: nobody can answer in --headless, so the demo's server accepted the waiting action itself after %s\n", format.Duration(hold))
	}
}
