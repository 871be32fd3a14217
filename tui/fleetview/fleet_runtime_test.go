package fleetview

import (
	"testing"

	"ohwatch/model"
)

// TestFleetRuntimeColumn: the RUNTIME column appears once a row's server
// says something of its runtime, with its words, and not before.
func TestFleetRuntimeColumn(t *testing.T) {
	t.Parallel()
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{})
	d := drive(t, f, 160, 48).Hides("RUNTIME")
	rt := model.Runtime{Status: "missing", CanResume: true}
	feedFleet(f, []model.FleetUpdate{{Ref: fleetRef(fleetServer, "3c1d2e4f"), Batch: model.Batch{Runtime: &rt}}})
	d.Shows("RUNTIME", "runtime missing")
}
