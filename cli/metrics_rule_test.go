package cli

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/termtest"
	"ohwatch/session"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
)

// TestMetricsNeverMixUnknownAndZero: a fork's first events (a step taken,
// nothing measured for it yet) read cost unknown; tokens and calls beside
// it read unknown too, never 0, in `state` at every event and in the TUI.
func TestMetricsNeverMixUnknownAndZero(t *testing.T) {
	const fork = "../testdata/forks/527775f1a7144ab4a361f8eed75caac9"
	mixed := 0
	for n := 1; n <= 33; n++ {
		_, out, _ := runCmd(t, nil, "state", fork, "--at", strconv.Itoa(n))
		if !strings.Contains(out, "cost           unknown") {
			continue
		}
		mixed++
		for _, want := range []string{"tokens         unknown", "llm calls      unknown"} {
			if !strings.Contains(out, want) {
				t.Fatalf("state --at %d: cost unknown but not %q:\n%s", n, want, out)
			}
		}
	}
	if mixed == 0 {
		t.Fatal("the fork never reads cost unknown: the fixture no longer shows the case")
	}

	_, log, err := session.LoadLog(context.Background(), fork)
	if err != nil {
		t.Fatal(err)
	}
	view := conversation.NewConversation(conversation.Options{Log: log, Title: "fork", NoColor: true})
	tm := termtest.Start(t, tui.NewModel(view), 160, 48)
	tm.WaitFor(t, 5*time.Second, "1/33")
	tm.Type(":3")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.WaitFor(t, 5*time.Second, "3/33")
	tm.Type("q")
	tm.Final(t, 5*time.Second)
	out := ansi.Strip(view.View())
	if strings.Contains(out, "LLM calls 0") || !strings.Contains(out, "LLM calls unknown") {
		t.Fatalf("the metrics pane at #3 mixes unknown and 0:\n%s", out)
	}
}
