package tui

import (
	"bytes"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"ohwatch/model"
)

// termWaiter reads a test program's terminal output as it comes and waits
// for text that one step alone puts on the screen.
type termWaiter struct {
	t    *testing.T
	tm   *teatest.TestModel
	seen bytes.Buffer
}

func (w *termWaiter) wait(what ...string) {
	w.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := io.Copy(&w.seen, w.tm.Output()); err != nil {
			w.t.Fatal(err)
		}
		all := true
		for _, s := range what {
			all = all && bytes.Contains(w.seen.Bytes(), []byte(s))
		}
		if all {
			w.seen.Reset()
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("not all of %q on the terminal after 5s; output since the last step:\n%q", what, w.seen.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestEndToEndFleetTable runs the fleet table as a program over a live
// feed: the history arrives, then live changes move rows into "needs you",
// a key re-sorts, and q quits.
func TestEndToEndFleetTable(t *testing.T) {
	feed := make(chan []model.FleetUpdate)
	f := NewFleet(FleetOptions{Feed: feed, NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart }})
	tm := teatest.NewTestModel(t, fleetProgram{f}, teatest.WithInitialTermSize(160, 48))
	w := &termWaiter{t: t, tm: tm}
	history, live := fleetFixture(t)
	feed <- history
	w.wait("Delete the build cache", "Upgrade the Go toolchain")
	feed <- live
	w.wait("4 need you", "Migrate the schema")
	tm.Send(tea.KeyPressMsg{Code: 's', Text: "s"})
	w.wait("CONN↑")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
