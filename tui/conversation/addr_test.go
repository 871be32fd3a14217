package conversation

import (
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// Every message a conversation view's commands send is addressed, so the
// router can hand it to its view when another screen is on top.
var (
	_ tui.Addressed = BatchMsg{}
	_ tui.Addressed = feedClosedMsg{}
	_ tui.Addressed = searchProgressMsg{}
	_ tui.Addressed = narrowProgressMsg{}
	_ tui.Addressed = playTickMsg{}
	_ tui.Addressed = retryTickMsg{}
	_ tui.Addressed = respondDoneMsg{}
	_ tui.Addressed = exportDoneMsg{}
	_ tui.Addressed = clipboardDoneMsg{}
	_ tui.Addressed = pagerFileMsg{}
	_ tui.Addressed = pagerDoneMsg{}
	_ tui.Addressed = flashExpiredMsg{}
)

// TestCommandsAddressTheirView runs the commands of every action that
// starts one (the feed, a search, play, a reconnect's countdown, an
// answer, an export, a copy, the pager's file, a flash) and checks that
// each message of the view's own comes addressed to that view. Timed
// commands run on synctest's clock.
func TestCommandsAddressTheirView(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no clipboard tool: the copy says so
	synctest.Test(t, func(t *testing.T) {
		feed := make(chan model.Batch, 2)
		m := newModel(Options{Log: tuitest.WaitingLog(t), Live: true, Feed: feed, Title: "t", Controls: &tuitest.Controls{},
			Export: func(f, p string) (string, error) { return "/tmp/x." + f, nil }}, 100, 30)
		replay := newModel(Options{Log: tuitest.ErrorLog(t)}, 100, 30)
		seen := map[string]bool{}
		check := func(v *Conversation, cmd tea.Cmd) {
			t.Helper()
			for _, msg := range runAll(cmd) {
				a, ok := msg.(tui.Addressed)
				if !ok {
					continue
				}
				seen[reflect.TypeOf(msg).Name()] = true
				if a.Addressee() != v.ScreenID() {
					t.Errorf("%T is addressed to %p, the view is %p", msg, a.Addressee(), v.ScreenID())
				}
			}
		}
		feed <- model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}
		check(m, m.Init())
		close(feed) // the next wait ends at once
		check(m, m.Update(BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 2, RetryIn: time.Second}}}))
		_, cmd := press(t, m, "a", "y") // accept: the answer
		check(m, cmd)
		_, cmd = press(t, m, "e", "j") // export (no path to ask: at once)
		check(m, cmd)
		_, cmd = press(t, replay, "/", "e") // a search's chunk
		check(replay, cmd)
		_, cmd = press(t, replay, "esc", "space") // play
		check(replay, cmd)
		_, cmd = press(t, replay, "space", "y") // copy
		check(replay, cmd)
		_, cmd = press(t, replay, "o") // the pager's file
		check(replay, cmd)
		for _, want := range []string{"BatchMsg", "feedClosedMsg", "retryTickMsg", "respondDoneMsg", "exportDoneMsg",
			"searchProgressMsg", "playTickMsg", "clipboardDoneMsg", "pagerFileMsg", "flashExpiredMsg"} {
			if !seen[want] {
				t.Errorf("no %s came of the commands", want)
			}
		}
	})
}

// runAll runs a command and every command of a batch, as Bubble Tea would
// (each to its end, timers included), and returns their messages.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runAll(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}
