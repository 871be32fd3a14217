package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/session"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
)

// TestReplayHeaderSaysHowTheRecordingEnds: a replay opens at its first
// event, idle and at $0.00 as of that event; the header says beside it
// that the recording ends finished at $0.12 (what `state` says), and
// stops saying so once the cursor is at the end.
func TestReplayHeaderSaysHowTheRecordingEnds(t *testing.T) {
	_, log, err := session.LoadLog(context.Background(), "../testdata/sdk")
	if err != nil {
		t.Fatal(err)
	}
	view := conversation.NewConversation(conversation.Options{Log: log, Title: "outcome", NoColor: true})
	tm := termtest.Start(t, tui.NewModel(view), 160, 48)
	tm.WaitFor(t, 5*time.Second, "status idle · ends ✓ finished · $0.12 · iter 0", "⏸ 1/30")
	tm.Type("G")
	tm.WaitFor(t, 5*time.Second, "30/30")
	// The help explains iter and steps (its "/" finds them).
	tm.Type("?/LLM steps")
	tm.WaitFor(t, 5*time.Second, "LLM steps since the last user message", "LLM steps in the whole conversation")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Type("qq")
	tm.Final(t, 5*time.Second)
	if got := view.View(); strings.Contains(got, "ends ✓ finished") {
		t.Fatalf("at the end the header still says how it ends:\n%s", got)
	}
}
