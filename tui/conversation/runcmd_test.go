package conversation

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// The helpers below run a view's commands and feed their messages back.
// Two kinds of command would wait: a tick (tea.Tick) and a wait on a feed
// that nothing more is coming on. They are told apart by the function the
// command's closure belongs to, not by a timeout, so a command that is
// slow on a loaded machine is waited for (a timeout took it for a tick and
// dropped its message) and a tick costs no time at all (the timeout cost
// the package's tests 25 s). By name, not by code address: a closure
// inlined into its caller is a function of its own, named after both.
// conversationFeedFunc names a conversation view's wait on its feed.
var conversationFeedFunc = regexp.MustCompile(`\(\*Conversation\)\.waitFeed\.func\d+$`)

// wouldWait reports whether cmd would wait: a tick, or a wait on a feed
// with nothing in it (the tests hand batches to Update themselves; one that
// queued a batch on the feed, or closed it, has the wait run).
func wouldWait(cmd tea.Cmd, feed <-chan model.Batch) bool {
	name := tuitest.FuncOf(cmd)
	switch {
	case tuitest.TickFunc.MatchString(name):
		return true
	case conversationFeedFunc.MatchString(name):
		return !tuitest.Ready(feed)
	}
	return false
}

// runCmd runs a command and feeds its message (and those of a batch) back
// into the model, skipping ticks and feed waits (see wouldWait).
func runCmd(tb testing.TB, m *Conversation, cmd tea.Cmd) *Conversation {
	tb.Helper()
	if cmd == nil || wouldWait(cmd, m.Opts.Feed) {
		return m
	}
	msg := tuitest.AnswerOf(tb, cmd)
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
	m := newModel(Options{Log: tuitest.ErrorLog(t), Live: true, Feed: feed}, 80, 24)
	if flash := m.setFlash("x"); !tuitest.IsTick(flash) || !wouldWait(flash, feed) {
		t.Errorf("a flash's expiry (%s) is not taken for a tick", tuitest.FuncOf(flash))
	}
	if !tuitest.IsTick(tea.Tick(time.Hour, nil)) {
		t.Errorf("tea.Tick (%s) is not taken for a tick", tuitest.FuncOf(tea.Tick(time.Hour, nil)))
	}
	wait := m.waitFeed()
	if !wouldWait(wait, feed) {
		t.Errorf("a wait on an empty feed (%s) is not taken for one", tuitest.FuncOf(wait))
	}
	feed <- model.Batch{}
	if wouldWait(wait, feed) {
		t.Error("a wait on a feed holding a batch is taken for a wait")
	}
	if answer := func() tea.Msg { return nil }; wouldWait(answer, feed) || tuitest.IsTick(answer) {
		t.Errorf("a command that answers (%s) is taken for a wait", tuitest.FuncOf(answer))
	}
	closed := make(chan model.Batch)
	close(closed)
	if !tuitest.Ready((<-chan model.Batch)(closed)) {
		t.Error("a closed feed is not ready")
	}
}

// TestSettleFindsTheInspectorsBuild: press builds the inspector's view by
// the build command's name, alone or in a batch; if the compiler ever
// names it otherwise, this fails rather than every inspector test.
func TestSettleFindsTheInspectorsBuild(t *testing.T) {
	m := newModel(Options{Log: tuitest.ErrorLog(t)}, 100, 30)
	cmd := m.Update(tuitest.KeyMsg("enter"))
	if !strings.Contains(screen(m), "rendering…") {
		t.Fatalf("the inspector was built before its command ran:\n%s", screen(m))
	}
	settle(m, tea.Batch(cmd, tea.Tick(time.Hour, nil)))
	if strings.Contains(screen(m), "rendering…") {
		t.Fatalf("settle did not run the build (%s):\n%s", tuitest.FuncOf(cmd), screen(m))
	}
}
