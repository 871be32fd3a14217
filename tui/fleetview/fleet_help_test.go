package fleetview

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// TestFleetHelpScrollsAndStaysOpen: the fleet's help scrolls with j, g
// and G and shows where it is; a key it does not read leaves it open.
func TestFleetHelpScrollsAndStaysOpen(t *testing.T) {
	t.Parallel()
	f := NewFleet(FleetOptions{Feed: make(chan []model.FleetUpdate), NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart }})
	d := tuitest.Drive(t, f, 80, 24)
	d.Press("?").Shows("ohwatch fleet · keys", "1-23 of 31")
	d.Press("G").Shows("9-31")
	d.Press("x").Shows("esc, ? or q closes the help")
	d.Press("g").Shows("1-23 of")
	d.Press("esc").Hides("ohwatch fleet · keys").Shows("? all keys")
}

// TestFleetHelpTakesTheKeysAndTheMouse: while the help is open, a key
// the table knows (s sorts, / filters) is the help's, and the mouse
// neither selects nor sorts; q closes the help rather than leaving.
func TestFleetHelpTakesTheKeysAndTheMouse(t *testing.T) {
	t.Parallel()
	f := NewFleet(FleetOptions{Feed: make(chan []model.FleetUpdate), NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart }})
	d := tuitest.Drive(t, f, 120, 30)
	before := d.Screen()
	d.Press("?").Shows("ohwatch fleet · keys")
	d.Press("s", "/")
	d.Send(tea.MouseClickMsg{Button: tea.MouseLeft, X: 60, Y: 1})
	d.Send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 10, Y: 5})
	d.Press("esc", "/", "esc").Shows("ohwatch fleet · keys") // "/" found, esc dropped the find
	d.Press("q")
	if d.Quit() {
		t.Fatal("q on the help left the table")
	}
	if got := d.Screen(); got != before {
		t.Fatalf("the help let a key or the mouse through to the table:\n%s\nwas:\n%s", got, before)
	}
}
