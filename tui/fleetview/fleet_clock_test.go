package fleetview

import (
	"testing"
	"time"

	"ohwatch/tui/internal/tuitest"
)

// TestFleetIdleReadsTheCommonClock: the idle column counts from the
// clock the table holds in its Common, so moving that clock on three
// hours and letting the table's second tick come changes every age on
// the screen, with no sleep.
func TestFleetIdleReadsTheCommonClock(t *testing.T) {
	t.Parallel()
	clock := fleetNow
	f := fleetFixtureScreen(t, 160, 30, FleetOptions{Now: func() time.Time { return clock }})
	d := tuitest.Drive(t, f, 160, 30)
	d.Shows("12:00:00                 0s live", "09:44:54              2h15m reconnect #2").Hides("3h00m")
	clock = clock.Add(3 * time.Hour)
	d.Shows("0s live") // nothing moves before the tick
	d.Send(fleetTickMsg{Addr: f.Addr()})
	d.Shows("12:00:00              3h00m live", "09:44:54              5h15m reconnect #2").Hides("2h15m")
	if d.Pending() == 0 {
		t.Fatal("the tick asked for no next second")
	}
	if got := f.Clock(); !got.Equal(clock) {
		t.Fatalf("the table's Common reads %v, want the clock it was given (%v)", got, clock)
	}
}
