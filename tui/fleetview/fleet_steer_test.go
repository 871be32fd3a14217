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
	d := drive(t, f, 160, 48)
	first := fleetRef(fleetServer, "3c1d2e4f")
	if got := selectedTitle(d); !strings.HasPrefix(got, "Delete the build cache") {
		t.Fatalf("fixture: the first row is %q", got)
	}
	d.Press("p").Shows("pause accepted")
	if got := steers.Got(); got != first.ID+":pause" {
		t.Fatalf("p sent %q", got)
	}
	// I asks first, and stays bound to its row whatever happens to the
	// rows meanwhile.
	d.Press("I").Shows("Interrupt “")
	_, live := fleetFixture(t)
	feedFleet(f, live)
	d.Press("y")
	if got := steers[first.ID].Got(); got != "pause|interrupt" {
		t.Fatalf("the interrupt went to %q", steers.Got())
	}
	// A message from the table: typed, sent with run (to a running row: a
	// waiting one is refused, TestFleetMessageRefusesARowWaitingForConfirmation).
	feedFleet(f, []model.FleetUpdate{eventsUp(first, statusEvent("w-run", model.StatusRunning, fleetNow))})
	selectRow(t, d, "Delete the build cache") // a row that no longer needs you moves down
	d.Press("M").Type("stop and summarise").Press("enter")
	if got := steers[first.ID].Got(); !strings.HasSuffix(got, "|message stop and summarise +run") {
		t.Fatalf("the message: %q", got)
	}
}

// selectRow moves the cursor down to the row whose title starts with
// title.
func selectRow(t *testing.T, d *tuitest.Driver, title string) {
	t.Helper()
	for range 50 {
		if strings.HasPrefix(selectedTitle(d), title) {
			return
		}
		d.Press("j")
	}
	t.Fatalf("no row %q:\n%s", title, d.Screen())
}

func TestFleetControlsSayWhyOnARowWithoutThem(t *testing.T) {
	steers := fleetSteers{}
	d := drive(t, fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: steers.steer}), 160, 48)
	selectRow(t, d, "Echo the word howdy") // a local recording
	d.Press("p").Shows("its source offers no controls here", "nothing sent")
	if got := steers.Got(); got != "" {
		t.Fatalf("p on a local row sent %q", got)
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
	d := drive(t, fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: steer}), 160, 48)
	paused := "c10d"
	selectRow(t, d, "Write the release notes") // its sandbox is paused
	for _, k := range []string{"p", "R", "I", "M", "C"} {
		// The footer says why (a question or the message field would
		// take its place).
		d.Press(k).Shows("its sandbox is paused: open it to resume", "nothing sent")
		d.Press("esc")
	}
	d.Press("P", "y")
	if s := steers[paused]; s != nil && s.Got() != "" {
		t.Errorf("sent to the paused sandbox: %q", s.Got())
	}
}

func TestFleetPauseAllRunningShown(t *testing.T) {
	steers := fleetSteers{}
	f := newFleetScreen(t, 160, 48, FleetOptions{Steer: steers.steer})
	// Three server conversations run, one has finished, and a local one
	// runs without controls.
	var ups []model.FleetUpdate
	running := []string{"r1", "r2", "r3"}
	for _, id := range append(running, "done") {
		ref := fleetRef(fleetServer, id)
		ups = append(ups, metaUp(ref, model.ConversationMeta{Title: "task " + id}), connUp(ref, model.PhaseLive),
			eventsUp(ref, statusEvent(id+"-run", model.StatusRunning, fleetNow)))
	}
	ups = append(ups, eventsUp(fleetRef(fleetServer, "done"), statusEvent("done-fin", model.StatusFinished, fleetNow)))
	local := fleetRef(fleetLocal, "l1")
	ups = append(ups, connUp(local, model.PhaseLive), eventsUp(local, statusEvent("l1-run", model.StatusRunning, fleetNow)))
	feedFleet(f, ups)
	d := drive(t, f, 160, 48)
	want := fmt.Sprintf("Pause all %s running shown? [y/n]", format.Plural(len(running), "conversation"))
	d.Press("P").Shows(want)
	d.Press("y").Shows(fmt.Sprintf("pause: %d of %d accepted", len(running), len(running)))
	for _, id := range running {
		if steers[id].Got() != "pause" {
			t.Errorf("%s got %q", id, steers[id].Got())
		}
	}
	if s := steers["done"]; s != nil && s.Got() != "" {
		t.Errorf("the finished conversation got %q", s.Got())
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
	// Wide enough for the footer to say it whole.
	d := drive(t, fleetFixtureScreen(t, 160, 48, FleetOptions{Steer: steers.steer}), 300, 48)
	if rows, sel := tableRows(d); !strings.HasPrefix(rows[sel], "!Delete the build cache") || !strings.Contains(d.Row(3), "waiting") {
		t.Fatalf("fixture: the first row is not the server's conversation waiting for confirmation:\n%s", d.Screen())
	}
	// The footer says so (the message field would take its place).
	d.Press("M").Shows("a message may approve its actions: open it (enter), where M asks first; nothing sent")
	if steers.Got() != "" {
		t.Fatalf("sent %q", steers.Got())
	}
}
