package fleetview

import (
	"strings"
	"testing"

	"ohwatch/model"
)

// TestFleetRuntimeColumn: the RUNTIME column appears once a row's server
// says something of its runtime, with its words, and not before.
func TestFleetRuntimeColumn(t *testing.T) {
	t.Parallel()
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{})
	if strings.Contains(f.View(), "RUNTIME") {
		t.Fatal("a RUNTIME column before any server said one")
	}
	r := f.rows[0]
	rt := model.Runtime{Status: "missing", CanResume: true}
	feedFleet(f, []model.FleetUpdate{{Ref: r.Ref, Batch: model.Batch{Runtime: &rt}}})
	view := f.View()
	if !strings.Contains(view, "RUNTIME") || !strings.Contains(view, "runtime missing") {
		t.Errorf("no RUNTIME column saying the runtime is missing:\n%s", view)
	}
}
