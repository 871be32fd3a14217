package conversation

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestTeatestKeysMakeTheFinalModel drives the real program through
// charmbracelet's teatest with no wait between keys: Bubble Tea delivers
// them in order, so the model the program ends with is the one the keys
// made (the first error, its inspector in raw mode, both closed with q).
// Nothing is polled: WaitFinished waits on the program's end.
func TestTeatestKeysMakeTheFinalModel(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: tuitest.ErrorLog(t), Title: "errors", Source: "replay ./errors", NoColor: true})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 48))
	for _, k := range []tea.KeyPressMsg{
		{Code: ']', Text: "]"}, {Code: tea.KeyEnter}, {Code: 'r', Text: "r"},
		{Code: 'q', Text: "q"}, {Code: 'q', Text: "q"},
	} {
		tm.Send(k)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	final := tm.FinalModel(t).(*tui.Model).Root().(*Conversation)
	// The inspector closed, on #7.
	if v := ansi.Strip(screen(final)); strings.Contains(v, "▌ Inspect") || cursorOn(v) != "#7" {
		t.Fatalf("final state:\n%s", v)
	}
	out, err := io.ReadAll(tm.FinalOutput(t))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("replay ./errors")) {
		t.Fatalf("the header never reached the terminal:\n%q", out)
	}
}
