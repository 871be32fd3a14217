package conversation

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// newModel builds a plain-text model of the given size.
func newModel(opts Options, w, h int) *Conversation {
	opts.NoColor, opts.Profile = true, colorprofile.NoTTY
	m := NewConversation(opts)
	_ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// press sends keys to the model one by one, running no commands but the
// inspector's build (settle), and returns the model and the last command.
func press(tb testing.TB, m *Conversation, keys ...string) (*Conversation, tea.Cmd) {
	tb.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = m.Update(tuitest.KeyMsg(k))
		settle(m, cmd)
	}
	return m, cmd
}

// inspectBuildFunc names the command that builds the inspector's view of
// an event, and batchFunc tea.Batch's, by the functions the compiler
// makes (TestSettleFindsTheInspectorsBuild fails if it names them
// otherwise).
var (
	inspectBuildFunc = regexp.MustCompile(`\(\*inspectJob\)\.run-fm$`)
	batchFunc        = regexp.MustCompile(`(\.Batch|compactCmds\[\.\.\.\])\.func\d+$`)
)

// settle runs the inspector's build among cmd's commands, as the program
// would, and hands its view to Update, so a test reads the open inspector
// without running the rest (ticks, feed waits). It reads what the view
// returned, never its fields; a build run twice is dropped by the view.
func settle(m *Conversation, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch name := tuitest.FuncOf(cmd); {
	case inspectBuildFunc.MatchString(name):
		m.Update(cmd())
	case batchFunc.MatchString(name):
		if batch, ok := cmd().(tea.BatchMsg); ok {
			for _, c := range batch {
				settle(m, c)
			}
		}
	}
}

// typeText types text into an open prompt.
func typeText(tb testing.TB, m *Conversation, text string) *Conversation {
	tb.Helper()
	for _, r := range text {
		_ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

// jumpTo opens the jump prompt, types target and submits it, as a user
// jumping to an event number or a time does.
func jumpTo(tb testing.TB, m *Conversation, target string) *Conversation {
	tb.Helper()
	m, _ = press(tb, m, ":")
	m = typeText(tb, m, target)
	m, _ = press(tb, m, "enter")
	return m
}

// screen renders the model as plain text.
func screen(m *Conversation) string {
	return m.View()
}

// fmtType names a value's dynamic type.
func fmtType(v any) string { return fmt.Sprintf("%T", v) }

// isPop reports whether cmd goes back one screen (Pop).
func isPop(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	msg, ok := cmd().(tui.PopMsg)
	return ok && msg.QuitAtRoot
}

// runSearch runs the search command among cmd (a tea.Batch's children are
// run side by side, and a child that is not the search is left) and every
// step the search takes after it, until the search stops running. Unlike
// runCmd it waits for the search however long it takes: under a loaded
// machine a scan step can outlast runCmd's tick cut-off.
func runSearch(tb testing.TB, m *Conversation, cmd tea.Cmd) *Conversation {
	tb.Helper()
	for cmd != nil {
		msg, ok := awaitSearchMsg(cmd)
		if !ok {
			tb.Fatal("no search step came within 30s")
		}
		cmd = m.Update(msg)
		if !m.search.running {
			return m
		}
	}
	return m
}

// awaitSearchMsg runs cmd and returns the first searchProgressMsg it (or,
// for a batch, any of its children) produces within 30s.
func awaitSearchMsg(cmd tea.Cmd) (searchProgressMsg, bool) {
	found := make(chan searchProgressMsg, 1)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, child := range msg {
				if child != nil {
					go run(child)
				}
			}
		case searchProgressMsg:
			select {
			case found <- msg:
			default:
			}
		}
	}
	go run(cmd)
	select {
	case msg := <-found:
		return msg, true
	case <-time.After(30 * time.Second):
		return searchProgressMsg{}, false
	}
}

// drive starts a black-box driver on a plain-text view of the given size:
// keys in, the screen's text out, the commands run as the program would
// but for ticks and waits on an empty feed (wouldWait).
func drive(tb testing.TB, opts Options, w, h int) *tuitest.Driver {
	tb.Helper()
	opts.NoColor, opts.Profile = true, colorprofile.NoTTY
	m := NewConversation(opts)
	d := tuitest.Drive(tb, m, w, h)
	d.Waits = func(cmd tea.Cmd) bool { return wouldWait(cmd, m.Opts.Feed) }
	return d
}
