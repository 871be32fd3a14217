package conversation

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/termtest"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestEndToEndReplayErrorInspectorRaw runs the real Bubble Tea program on a
// replay: jump to the first error, open the inspector, switch to raw JSON,
// and read each step off the terminal output. Colours are off, so what is
// asserted is the text itself.
func TestEndToEndReplayErrorInspectorRaw(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: tuitest.ErrorLog(t), Title: "errors", Source: "replay ./errors", NoColor: true})
	tm := termtest.Start(t, m, 160, 48)
	// Each step waits for what it puts on the terminal; a bound of 5 s is
	// only how long before the test fails.
	wait := func(what ...string) {
		t.Helper()
		tm.WaitFor(t, 5*time.Second, what...)
	}
	wait("system prompt, 5 tools")
	tm.Send(tea.KeyPressMsg{Code: ']', Text: "]"})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	// The renderer writes only the cells that changed, so each step waits
	// for text that the step alone puts on the screen.
	wait("Inspect #7", "exit code: 1", "cat: missing.txt: No such file or directory")
	tm.Send(tea.KeyPressMsg{Code: 'r', Text: "r"})
	wait(`"is_error": true`, `"exit_code": 1`)
	// q goes back one screen, from the inspector to the list; at the root
	// it quits.
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	final := tm.Final(t, 5*time.Second).(*tui.Model).Root().(*Conversation)
	// The inspector closed (its raw mode was seen above), on #7.
	if v := ansi.Strip(screen(final)); strings.Contains(v, "▌ Inspect") || cursorOn(v) != "#7" {
		t.Fatalf("final state:\n%s", v)
	}
}
