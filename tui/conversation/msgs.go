package conversation

import (
	"time"

	"ohwatch/model"
	"ohwatch/tui"
)

// BatchMsg is sent when the feed delivers a batch of events (about one per
// frame); Update appends it to the log and re-arms the feed command.
type BatchMsg struct {
	tui.Addr
	Batch model.Batch
}

// feedClosedMsg is sent when the feed channel closes: the source is done.
type feedClosedMsg struct{ tui.Addr }

// searchProgressMsg is sent when a search command has scanned a stretch
// of the log, [from, next) of [from, end); gen ties it to the search that
// started it, so a stale result is dropped. cancelled says the search was
// replaced while the command ran.
type searchProgressMsg struct {
	tui.Addr
	gen             int
	from, next, end int
	matches         []int
	details         []int
	cancelled       bool
}

// playTickMsg is sent when the replay's wait for the next event is over;
// gen drops ticks of a replay that was paused or restarted since.
type playTickMsg struct {
	tui.Addr
	gen int
}

// respondDoneMsg is sent when an accept or reject request finished.
type respondDoneMsg struct {
	tui.Addr
	accept  bool
	indices []int // the actions answered, for the footer
	err     error
}

// exportDoneMsg is sent when Options.Export finished.
type exportDoneMsg struct {
	tui.Addr
	path string
	err  error
}

// pagerFileMsg is sent when an event's JSON was written to a temporary file
// that the pager can now open.
type pagerFileMsg struct {
	tui.Addr
	path string
	err  error
}

// pagerDoneMsg is sent when the pager exited and the terminal is back.
type pagerDoneMsg struct {
	tui.Addr
	path string
	err  error
}

// flashExpiredMsg is sent when a transient footer message has been shown
// long enough; id drops the expiry of an older message.
type flashExpiredMsg struct {
	tui.Addr
	id int
}

// flashDuration is how long a transient footer message stays.
const flashDuration = 4 * time.Second
