package fleetview

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// The helpers below drive the conversation view the fleet opens; the
// fakes and fixtures the fleet's tests share with the conversation view's
// and the compare screen's are tuitest's.

// fleetBranching is a source's tree whose forks are listed in the table
// rather than opened in a view of their own.
type fleetBranching struct{ tuitest.Branching }

// Open leaves the fork to the table.
func (*fleetBranching) Open(context.Context, string) (conversation.Options, bool) {
	return conversation.Options{}, false
}

// newModel builds a plain-text model of the given size.
func newModel(opts conversation.Options, w, h int) *conversation.Conversation {
	opts.NoColor, opts.Profile = true, colorprofile.NoTTY
	m := conversation.NewConversation(opts)
	_ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// screen renders the model as plain text.
func screen(m *conversation.Conversation) string {
	return m.View()
}

// press sends keys to the model one by one, running no commands, and
// returns the model and the last command.
func press(tb testing.TB, m *conversation.Conversation, keys ...string) (*conversation.Conversation, tea.Cmd) {
	tb.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = m.Update(tuitest.KeyMsg(k))
		settle(m, cmd)
	}
	return m, cmd
}

// settle runs the commands a key returned that answer at once (the
// inspector's view of an event, built off the UI), skipping ticks and
// waits on a feed, and hands their messages to the view: a test reads the
// open inspector without running the program.
func settle(m *conversation.Conversation, cmd tea.Cmd) {
	if cmd == nil || tuitest.IsTick(cmd) || strings.Contains(tuitest.FuncOf(cmd), "waitFeed") {
		return
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			settle(m, c)
		}
		return
	}
	if msg != nil {
		m.Update(msg)
	}
}
