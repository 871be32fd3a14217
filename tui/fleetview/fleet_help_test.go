package fleetview

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestFleetHelpScrollsAndStaysOpen: the fleet's help scrolls with j, g
// and G and shows where it is; a key it does not read leaves it open.
func TestFleetHelpScrollsAndStaysOpen(t *testing.T) {
	t.Parallel()
	f := NewFleet(FleetOptions{Feed: make(chan []model.FleetUpdate), NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart }})
	tm := termtest.Start(t, tui.NewModel(f), 80, 24)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	tm.Type("?")
	w.Wait("1-23 of 31")
	tm.Type("G")
	w.Wait("9-31")
	tm.Type("x")
	w.Wait("esc, ? or q closes the help")
	tm.Type("g")
	w.Wait("1-23 of")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Type("q")
	if got := ansi.Strip(tm.Final(t, 5*time.Second).(*tui.Model).Root().View()); strings.Contains(got, "closes the help") {
		t.Fatalf("the fleet's help still open after esc:\n%s", got)
	}
}
