package conversation

import (
	"testing"
	"time"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestNotificationsPassThroughTmux: inside tmux ($TMUX set, Options.Tmux)
// each OSC is wrapped for tmux's passthrough, its ESCs doubled, or tmux
// would swallow it; outside, they are written as they are.
func TestNotificationsPassThroughTmux(t *testing.T) {
	if got, want := tui.NotifySequence("ohwatch: x", "done", false), "\a\x1b]9;ohwatch: x - done\x07\x1b]777;notify;ohwatch: x;done\x07"; got != want {
		t.Errorf("outside tmux: %q, want %q", got, want)
	}
	if got, want := tui.NotifySequence("ohwatch: x", "done", true),
		"\a\x1bPtmux;\x1b\x1b]9;ohwatch: x - done\x07\x1b\\\x1bPtmux;\x1b\x1b]777;notify;ohwatch: x;done\x07\x1b\\"; got != want {
		t.Errorf("inside tmux: %q, want %q", got, want)
	}
	// Through the terminal: a conversation that comes to need the user.
	t.Run("terminal", func(t *testing.T) {
		feed := make(chan model.Batch, 3)
		log := tuitest.WaitingLog(t)
		m := New(Options{Log: log, Live: true, Feed: feed, NoColor: true, Notify: true, Tmux: true, Title: "tmux"})
		tm := termtest.Start(t, m, 120, 30)
		feed <- model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}
		feed <- statusBatch(t, "c1000000-0000-4000-8000-0000000000a1", "running").Batch
		feed <- statusBatch(t, "c1000000-0000-4000-8000-0000000000a2", "error").Batch
		tm.WaitFor(t, 5*time.Second, "\x1bPtmux;\x1b\x1b]9;ohwatch: tmux - ", "\x1bPtmux;\x1b\x1b]777;notify;ohwatch: tmux;")
		close(feed)
		tm.Send(tuitest.KeyMsg("q"))
		tm.Final(t, 5*time.Second)
	})
}
