package tui

import (
	"reflect"
	"regexp"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
)

// The helpers below run a view's commands and feed their messages back.
// Two kinds of command would wait: a tick (tea.Tick) and a wait on a feed
// that nothing more is coming on. They are told apart by the function the
// command's closure belongs to, not by a timeout, so a command that is
// slow on a loaded machine is waited for (a timeout took it for a tick and
// dropped its message) and a tick costs no time at all (the timeout cost
// the package's tests 25 s). By name, not by code address: a closure
// inlined into its caller is a function of its own, named after both.
var (
	tickFunc             = regexp.MustCompile(`(^|\.)Tick\.func\d+$`)
	conversationFeedFunc = regexp.MustCompile(`\(\*Conversation\)\.waitFeed\.func\d+$`)
	fleetFeedFunc        = regexp.MustCompile(`\(\*Fleet\)\.waitFeed\.func\d+$`)
)

// funcOf names the function a command runs.
func funcOf(cmd tea.Cmd) string {
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		return f.Name()
	}
	return ""
}

// isTick reports whether cmd waits for a timer.
func isTick(cmd tea.Cmd) bool { return tickFunc.MatchString(funcOf(cmd)) }

// isFleetFeedWait reports whether cmd is a fleet's wait on its feed.
func isFleetFeedWait(cmd tea.Cmd) bool { return fleetFeedFunc.MatchString(funcOf(cmd)) }

// wouldWait reports whether cmd would wait: a tick, or a wait on a feed
// with nothing in it (the tests hand batches to Update themselves; one that
// queued a batch on the feed, or closed it, has the wait run).
func wouldWait(cmd tea.Cmd, feed <-chan model.Batch) bool {
	name := funcOf(cmd)
	switch {
	case tickFunc.MatchString(name):
		return true
	case conversationFeedFunc.MatchString(name):
		return !ready(feed)
	}
	return false
}

// ready reports whether a receive on ch would not block: something is
// queued on it, or it is closed. A closed channel is told by a receive
// that takes nothing; a test whose feed has a sender blocked on it (an
// unbuffered feed fed by a goroutine) would lose that batch here, so it
// fails instead: such a feed must be buffered.
func ready[T any](ch <-chan T) bool {
	if ch == nil {
		return false
	}
	if len(ch) > 0 {
		return true
	}
	select {
	case _, ok := <-ch:
		if ok {
			panic("tui tests: a feed with a sender waiting on it: buffer the feed")
		}
		return true
	default:
		return false
	}
}

// cmdAnswerWait bounds the wait for a command that is neither a tick nor a
// feed wait: it answers in milliseconds, so one that has not answered in
// this long is a bug, reported as such rather than taken for a tick.
const cmdAnswerWait = time.Minute

// answerOf runs cmd, which must answer, and returns its message.
func answerOf(tb testing.TB, cmd tea.Cmd) tea.Msg {
	tb.Helper()
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		return msg
	case <-time.After(cmdAnswerWait):
		tb.Fatalf("a command (not a tick, not a feed wait) did not answer in %v: %s", cmdAnswerWait, funcOf(cmd))
		return nil
	}
}

// runCmd runs a command and feeds its message (and those of a batch) back
// into the model, skipping ticks and feed waits (see wouldWait).
func runCmd(tb testing.TB, m *Conversation, cmd tea.Cmd) *Conversation {
	tb.Helper()
	if cmd == nil || wouldWait(cmd, m.opts.Feed) {
		return m
	}
	msg := answerOf(tb, cmd)
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			m = runCmd(tb, m, c)
		}
		return m
	case nil:
		return m
	}
	m.Update(msg) // what it asks for next is not run: a test runs it when it wants it
	return m
}

// TestCommandHelpersTellWaitsApart: the helpers know a tick and a feed
// wait by their functions' names, which the compiler makes (an inlined
// closure is named after its caller too); if it ever names them
// otherwise, this fails rather than every test waiting a minute.
func TestCommandHelpersTellWaitsApart(t *testing.T) {
	feed := make(chan model.Batch, 1)
	m := newModel(Options{Log: errorLog(t), Live: true, Feed: feed}, 80, 24)
	if flash := m.setFlash("x"); !isTick(flash) || !wouldWait(flash, feed) {
		t.Errorf("a flash's expiry (%s) is not taken for a tick", funcOf(flash))
	}
	if !isTick(tea.Tick(time.Hour, nil)) {
		t.Errorf("tea.Tick (%s) is not taken for a tick", funcOf(tea.Tick(time.Hour, nil)))
	}
	wait := m.waitFeed()
	if !wouldWait(wait, feed) {
		t.Errorf("a wait on an empty feed (%s) is not taken for one", funcOf(wait))
	}
	feed <- model.Batch{}
	if wouldWait(wait, feed) {
		t.Error("a wait on a feed holding a batch is taken for a wait")
	}
	if answer := func() tea.Msg { return nil }; wouldWait(answer, feed) || isTick(answer) {
		t.Errorf("a command that answers (%s) is taken for a wait", funcOf(answer))
	}
	closed := make(chan model.Batch)
	close(closed)
	if !ready((<-chan model.Batch)(closed)) {
		t.Error("a closed feed is not ready")
	}
	f := newFleetScreen(t, 80, 24, FleetOptions{Feed: make(chan []model.FleetUpdate)})
	if w := f.waitFeed(); !isFleetFeedWait(w) {
		t.Errorf("a fleet's feed wait (%s) is not taken for one", funcOf(w))
	}
}
