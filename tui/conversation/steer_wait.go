package conversation

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui"
)

// RunWaiter is a Steering whose resume can take a while: an agent-server
// that was paused mid-run refuses a new run ("already running") until the
// paused one has ended, which waits on the delivery of its last events
// (up to half a minute on a server that posts them to Cloud). RunWaiting
// asks again until the server takes the run, calling say with a line
// that tells the person what it waits for; it gives up, with an error
// that says so, when ctx ends.
type RunWaiter interface {
	RunWaiting(ctx context.Context, say func(string)) error
}

// runWaitTimeout bounds a resume that waits for the server to finish the
// paused run: longer than the server's own wait on its event deliveries.
const runWaitTimeout = 90 * time.Second

// ControlProgressMsg is a line a control in flight says while it waits;
// Next waits for its next line or its answer.
type ControlProgressMsg struct {
	tui.Addr
	Text string
	Next tea.Cmd
}

// ControlContext is the context a control is sent with: a resume that can
// wait for the server gets longer than a plain request.
func (a ControlAsk) ControlContext() (context.Context, context.CancelFunc) {
	if _, ok := a.To.(RunWaiter); ok && a.What == CtlRun {
		return context.WithTimeout(context.Background(), runWaitTimeout)
	}
	return context.WithTimeout(context.Background(), RespondTimeout)
}

// WithProgress runs send in the background and delivers what it says
// (ControlProgressMsg, to the screen at to) and, last, its answer. Only
// the latest line waits to be shown: a line superseded before the screen
// took it is dropped.
func WithProgress(to tui.Addr, send func(say func(string)) tea.Msg) tea.Cmd {
	lines := make(chan string, 1)
	done := make(chan tea.Msg, 1)
	say := func(s string) {
		// The only sender: after the drain the send cannot block.
		select {
		case <-lines:
		default:
		}
		lines <- s
	}
	var next tea.Cmd
	next = func() tea.Msg {
		select {
		case msg := <-done:
			return msg
		case s := <-lines:
			return ControlProgressMsg{Addr: to, Text: s, Next: next}
		}
	}
	return func() tea.Msg {
		go func() { done <- send(say) }()
		return next()
	}
}
