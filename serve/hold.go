package serve

import (
	"fmt"
	"time"
)

// UntilAnswered is the ConfirmHold of a server that waits at
// waiting_for_confirmation until a respond_to_confirmation (or a message)
// comes, however long that takes: what a real agent-server does.
const UntilAnswered time.Duration = -1

// HoldFlag is a ConfirmHold as a command-line flag: "until-answered" or a
// duration (0 does not wait).
type HoldFlag time.Duration

// String implements flag.Value.
func (h *HoldFlag) String() string {
	if h == nil || time.Duration(*h) < 0 {
		return "until-answered"
	}
	return time.Duration(*h).String()
}

// Set implements flag.Value.
func (h *HoldFlag) Set(s string) error {
	if s == "until-answered" {
		*h = HoldFlag(UntilAnswered)
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q is not until-answered or a duration of 0 or more (10s)", s)
	}
	*h = HoldFlag(d)
	return nil
}

// acceptedLocked moves a conversation whose actions were accepted on: a
// recording states its own next status, but a wait the policy made up has
// none recorded after it.
func (c *conversation) acceptedLocked() {
	if c.policy != nil && c.sentStatus == "waiting_for_confirmation" {
		c.sendStatusLocked("running")
	}
}
