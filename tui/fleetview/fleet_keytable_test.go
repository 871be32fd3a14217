package fleetview

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestKeysOfAnotherScreenSaySo: a, x and space on the fleet do nothing
// there, and say so instead of nothing (compare: its own test).
func TestKeysOfAnotherScreenSaySo(t *testing.T) {
	t.Parallel()
	f := NewFleet(FleetOptions{Feed: make(chan []model.FleetUpdate), NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart }})
	tm := termtest.Start(t, tui.NewModel(f), 120, 30)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	w.Wait("? ")
	tm.Type("a")
	w.Wait("a (accept pending) is a key of a conversation's view")
	tm.Type("x")
	w.Wait("x (rejec")
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	w.Wait("space (play/pause")
	tm.Type("q")
	tm.Final(t, 5*time.Second)

}
