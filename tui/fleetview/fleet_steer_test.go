package fleetview

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/format"
	"ohwatch/guard"
	"ohwatch/model"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// fleetSteers gives each agent-server conversation of the fixture a
// tuitest.Steering of its own; Cloud and local ones have none.
type fleetSteers map[string]*tuitest.Steering

func (s fleetSteers) steer(ref model.ConversationRef) conversation.Steering {
	if ref.Kind != model.SourceServer {
		return nil
	}
	if s[ref.ID] == nil {
		s[ref.ID] = &tuitest.Steering{}
	}
	return s[ref.ID]
}

func (s fleetSteers) Got() string {
	var out []string
	for id, f := range s {
		if g := f.Got(); g != "" {
			out = append(out, id+":"+g)
		}
	}
	return strings.Join(out, " ")
}

func TestFleetControlsOnTheSelectedRow(t *testing.T) {
	steers := fleetSteers{}
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: steers.steer})
	first := f.rows[f.cursor]
	if first.Ref.Kind != model.SourceServer {
		t.Fatalf("fixture: the first row is %v", first.Ref)
	}
	cmd := pressFleet(f, "p")
	f.Update(cmd())
	if got := steers.Got(); got != first.Ref.ID+":pause" || !strings.Contains(f.flash, "pause accepted") {
		t.Fatalf("p sent %q, footer %q", got, f.flash)
	}
	// I asks first, and stays bound to its row whatever happens to the
	// rows meanwhile.
	pressFleet(f, "I")
	if !strings.Contains(f.View(), "Interrupt “") {
		t.Fatalf("I does not ask:\n%s", f.View())
	}
	_, live := fleetFixture(t)
	feedFleet(f, live)
	f.Update(pressFleet(f, "y")())
	if got := steers[first.Ref.ID].Got(); got != "pause|interrupt" {
		t.Fatalf("the interrupt went to %q", steers.Got())
	}
	// A message from the table: typed, sent with run (to a running row: a
	// waiting one is refused, TestFleetMessageRefusesARowWaitingForConfirmation).
	f.rows[f.cursor].Verdict.Status = model.StatusRunning
	pressFleet(f, "M")
	f = typeFleet(f, "stop and summarise")
	f.Update(pressFleet(f, "enter")())
	if got := steers[first.Ref.ID].Got(); !strings.HasSuffix(got, "|message stop and summarise +run") {
		t.Fatalf("the message: %q", got)
	}
}

func typeFleet(f *Fleet, text string) *Fleet {
	for _, r := range text {
		f.Update(tuitest.KeyMsg(string(r)))
	}
	return f
}

func TestFleetControlsSayWhyOnARowWithoutThem(t *testing.T) {
	steers := fleetSteers{}
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: steers.steer})
	for i, r := range f.rows {
		if r.Ref.Kind == model.SourceLocal {
			f.cursor = i
			break
		}
	}
	if cmd := pressFleet(f, "p"); cmd != nil || !strings.Contains(f.flash, "its source offers no controls here") || !strings.Contains(f.flash, "nothing sent") {
		t.Fatalf("p on a local row: %q", f.flash)
	}
}

// TestFleetControlsRefuseAPausedSandbox: a Cloud row has controls, but
// while its sandbox is paused every one says so and sends nothing (the
// sandbox is resumed only when it is opened, on y), and P leaves it out.
func TestFleetControlsRefuseAPausedSandbox(t *testing.T) {
	steers := map[string]*tuitest.Steering{}
	steer := func(ref model.ConversationRef) conversation.Steering {
		if ref.Kind == model.SourceLocal {
			return nil
		}
		if steers[ref.ID] == nil {
			steers[ref.ID] = &tuitest.Steering{}
		}
		return steers[ref.ID]
	}
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: steer})
	paused := ""
	for i, r := range f.rows {
		if r.Paused {
			f.cursor, paused = i, r.Ref.ID
			break
		}
	}
	if paused == "" {
		t.Fatal("fixture: no paused sandbox")
	}
	for _, k := range []string{"p", "R", "I", "M", "C"} {
		if cmd := pressFleet(f, k); cmd != nil || f.ask.active() || !strings.Contains(f.flash, "its sandbox is paused: open it to resume") || !strings.Contains(f.flash, "nothing sent") {
			t.Fatalf("%s on a paused sandbox: %q", k, f.flash)
		}
	}
	pressFleet(f, "P")
	for _, to := range f.ask.to {
		if to.ref.ID == paused {
			t.Fatal("P counts the paused sandbox")
		}
	}
	if s := steers[paused]; s != nil && s.Got() != "" {
		t.Errorf("sent to the paused sandbox: %q", s.Got())
	}
}

func TestFleetPauseAllRunningShown(t *testing.T) {
	steers := fleetSteers{}
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: steers.steer})
	var running []string
	for _, r := range f.rows {
		if r.Verdict.Status == model.StatusRunning && r.Ref.Kind == model.SourceServer {
			running = append(running, r.Ref.ID)
		}
	}
	if len(running) == 0 {
		t.Skip("fixture: nothing runs")
	}
	pressFleet(f, "P")
	want := fmt.Sprintf("Pause all %s running shown? [y/n]", format.Plural(len(running), "conversation"))
	if !strings.Contains(f.View(), want) {
		t.Fatalf("P does not name how many (%s):\n%s", want, f.View())
	}
	f.Update(pressFleet(f, "y")())
	for _, id := range running {
		if steers[id].Got() != "pause" {
			t.Errorf("%s got %q", id, steers[id].Got())
		}
	}
	if !strings.Contains(f.flash, fmt.Sprintf("pause: %d of %d accepted", len(running), len(running))) && len(running) > 1 {
		t.Errorf("footer %q", f.flash)
	}
}

// TestFleetGuardStopsAndMarksARun: a pause guard on the table stops each
// running server conversation that passes it through its row's controls,
// and marks its row.
func TestFleetGuardStopsAndMarksARun(t *testing.T) {
	steers := fleetSteers{}
	rules, err := guard.ParseAll([]string{"steps>0:pause"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFleetScreen(t, 160, 48, FleetOptions{Steer: steers.steer, Guards: rules})
	history, live := fleetFixture(t)
	for _, ups := range [][]model.FleetUpdate{history, live} {
		for _, msg := range fleetResults(t, feedFleet(f, ups)) {
			f.Update(msg)
		}
	}
	got := steers.Got()
	if !strings.Contains(got, ":pause") {
		t.Fatalf("no run was paused: %q", got)
	}
	marked := 0
	for _, line := range strings.Split(f.View(), "\n") {
		if strings.Contains(line, " "+fleetGuardMark+" ") {
			marked++
		}
	}
	if marked != strings.Count(got, ":pause") {
		t.Errorf("%d rows marked for %q:\n%s", marked, got, f.View())
	}
}

// fleetResults runs a table's command (and a batch's) and returns the
// messages of its controls' answers.
func fleetResults(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	for _, msg := range tuitest.Results(t, cmd) {
		if _, ok := msg.(fleetGuardDoneMsg); ok {
			out = append(out, msg)
		}
	}
	return out
}

// TestFleetMessageRefusesARowWaitingForConfirmation: from the table no
// pending action is in view, and a message may approve it (SDK ≤1.43.1):
// M sends nothing and points at the view, where it asks first.
func TestFleetMessageRefusesARowWaitingForConfirmation(t *testing.T) {
	steers := fleetSteers{}
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: steers.steer})
	found := false
	for i, r := range f.rows {
		if r.Ref.Kind == model.SourceServer && r.Verdict.Status == model.StatusWaitingForConfirmation {
			f.cursor, found = i, true
			break
		}
	}
	if !found {
		r := &f.rows[f.cursor]
		if r.Ref.Kind != model.SourceServer {
			t.Fatal("fixture: no agent-server row")
		}
		r.Verdict.Status = model.StatusWaitingForConfirmation
	}
	if cmd := pressFleet(f, "M"); cmd != nil || f.ask.active() || !strings.Contains(f.flash, "a message may approve its actions: open it (enter), where M asks first; nothing sent") {
		t.Fatalf("M on a waiting row: ask %v, footer %q", f.ask.active(), f.flash)
	}
	if steers.Got() != "" {
		t.Fatalf("sent %q", steers.Got())
	}
}
