package fleetview

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// TestFleetPausedAsksToResume: enter on a Cloud conversation whose sandbox
// is paused says so and asks; y resumes it (Resume) and opens it live, n
// and esc open the stored events read-only (Open), any other key leaves
// the question open. Without Resume, enter opens it read-only at once.
func TestFleetPausedAsksToResume(t *testing.T) {
	t.Parallel()
	var calls []string
	opts := FleetOptions{
		Open: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
			calls = append(calls, "open "+ref.ID)
			return conversation.Options{Title: "stored " + ref.ID}, nil
		},
		Resume: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
			calls = append(calls, "resume "+ref.ID)
			if len(calls) > 2 {
				return conversation.Options{}, errors.New("sandbox sb-1 is ERROR")
			}
			return conversation.Options{Title: "live " + ref.ID, Live: true}, nil
		},
	}
	// The table is driven from outside; the screens it pushes are kept,
	// and an open can be held to see the table while it runs.
	var held tea.Cmd
	hold := false
	start := func() (*tuitest.Driver, *pushRecorder) {
		rec := &pushRecorder{Fleet: fleetFixtureScreen(t, 150, 30, opts)}
		d := tuitest.Drive(t, rec, 150, 30)
		d.Waits = func(cmd tea.Cmd) bool {
			if hold && strings.Contains(tuitest.FuncOf(cmd), "startOpen") {
				held = cmd
				return true
			}
			return tuitest.IsTick(cmd)
		}
		// Only the paused conversation matches.
		d.Press("/").Type("release notes").Press("enter")
		return d, rec
	}
	d, rec := start()

	// enter asks, and says what resuming does.
	d.Press("enter").Shows("“Write the release notes”: its sandbox is paused", "Resuming starts the sandbox again on Cloud",
		"y resume the sandbox and open it live", "n/esc open the stored events read-only")
	if len(calls) != 0 {
		t.Fatalf("enter on a paused conversation opened it: %v", calls)
	}
	if got := strings.Count(d.Screen(), "\n") + 1; got != 30 {
		t.Fatalf("the screen is %d lines, want 30", got)
	}
	// Another key leaves the question open.
	d.Press("j").Shows("its sandbox is paused")
	if len(calls) != 0 || len(rec.pushed) != 0 {
		t.Fatal("a key other than y, n or esc answered the question")
	}

	// y resumes it and opens it live.
	hold = true
	d.Press("y").Shows("resuming… Write the release").Hides("its sandbox is paused")
	hold = false
	d.Send(held())
	if strings.Join(calls, ",") != "resume c10d" || len(rec.pushed) != 1 || !rec.pushed[0].(*fleetConversation).Opts.Live {
		t.Fatalf("after y: %v, %d pushed", calls, len(rec.pushed))
	}

	// n opens the stored events, read-only; so does esc.
	for _, k := range []string{"n", "esc"} {
		calls, rec.pushed = nil, nil
		d.Press("enter", k).Hides("its sandbox is paused")
		if strings.Join(calls, ",") != "open c10d" || len(rec.pushed) != 1 || rec.pushed[0].(*fleetConversation).Opts.Live {
			t.Fatalf("after %s: %v, %d pushed", k, calls, len(rec.pushed))
		}
	}

	// A resume that fails says so.
	calls = []string{"", ""}
	d.Press("enter", "y").Shows("could not resume the sandbox of c10d: sandbox sb-1 is ERROR")

	// Without Resume, enter opens it read-only at once.
	opts.Resume = nil
	d, _ = start()
	calls = nil
	d.Press("enter").Hides("its sandbox is paused")
	if strings.Join(calls, ",") != "open c10d" {
		t.Fatalf("without Resume: %v", calls)
	}
}

// pushRecorder is a table that keeps the screens it pushes, as the
// router would push them.
type pushRecorder struct {
	*Fleet
	pushed []tui.Screen
}

// Update keeps a push and hands the rest to the table.
func (p *pushRecorder) Update(msg tea.Msg) tea.Cmd {
	if push, ok := msg.(tui.PushMsg); ok {
		p.pushed = append(p.pushed, push.Screen)
		return nil
	}
	return p.Fleet.Update(msg)
}
