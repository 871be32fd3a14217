package tui

import (
	"bytes"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestEndToEndReplayErrorInspectorRaw runs the real Bubble Tea program on a
// replay: jump to the first error, open the inspector, switch to raw JSON,
// and read each step off the terminal output. Colours are off, so what is
// asserted is the text itself.
func TestEndToEndReplayErrorInspectorRaw(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: errorLog(t), Title: "errors", Source: "replay ./errors", NoColor: true})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 48))
	// The output is read as it comes and kept, so each step can look at
	// everything written since the step before.
	var seen bytes.Buffer
	wait := func(what ...string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			if _, err := io.Copy(&seen, tm.Output()); err != nil {
				t.Fatal(err)
			}
			all := true
			for _, w := range what {
				all = all && bytes.Contains(seen.Bytes(), []byte(w))
			}
			if all {
				seen.Reset()
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("not all of %q on the terminal after 5s; output since the last step:\n%q", what, seen.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	wait("system prompt, 6 tools")
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
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(*Model).Root().(*Conversation)
	if final.insp.open || final.insp.mode != modeRaw || final.cursor != 6 {
		t.Fatalf("final state: open %v mode %v cursor %d", final.insp.open, final.insp.mode, final.cursor)
	}
}
