package conversation

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// TestRTriesAgainAfterTheWatchGaveUp: a first connection that gave up says
// r tries again and how to wait for a server that is coming; r starts the
// watch again over the same feed, and the view goes live when it does.
func TestRTriesAgainAfterTheWatchGaveUp(t *testing.T) {
	t.Parallel()
	var tries atomic.Int32
	feed := make(chan model.Batch, 4)
	feed <- model.Batch{Conn: &model.ConnState{Phase: model.PhaseLost, Final: true, Code: "connect", Reason: "dial tcp 127.0.0.1:9: connect: connection refused"}}
	log := reducer.NewLog(nil, 0)
	m := New(Options{Log: log, Live: true, Feed: feed, NoColor: true, Server: "http://127.0.0.1:9", Conversation: "c1",
		Retry: func() bool { tries.Add(1); return true }})
	tm := termtest.Start(t, m, 160, 30)
	tm.WaitFor(t, 5*time.Second, "gave up · r tries again · watch --wait 5m waits for a server that is coming")
	tm.Send(tea.KeyPressMsg{Code: 'r', Text: "r"})
	tm.WaitFor(t, 5*time.Second, "trying again: connecting to")
	if tries.Load() != 1 {
		t.Fatalf("r asked for %d attempts", tries.Load())
	}
	feed <- model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}
	tm.WaitFor(t, 5*time.Second, "● LIVE")
	close(feed)
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if final := tm.Final(t, 5*time.Second).(*tui.Model); final.Unreachable() != "" {
		t.Errorf("a watch that went live on the retry reads as unreachable: %q", final.Unreachable())
	}
}

// TestFirstWaitIsSaidOnScreen: with --wait the banner of a first
// connection says how long it keeps trying.
func TestFirstWaitIsSaidOnScreen(t *testing.T) {
	feed := make(chan model.Batch)
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: feed, Server: "http://127.0.0.1:9", FirstWait: 2 * time.Minute,
		Retry: func() bool { return true }}, 160, 30)
	m.Update(BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 4, RetryIn: time.Second, Reason: "connection refused"}}})
	if s := screen(m); !strings.Contains(s, "waiting up to 2m00s for the server (--wait)") {
		t.Fatalf("the wait is not said:\n%s", s)
	}
}
