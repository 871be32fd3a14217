package cli

import (
	"runtime/debug"
	"testing"

	"ohwatch/client/fleetsource"
)

// gcPercent reads the collector's target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestFleetCollectsAtItsOwnTarget: a fleet runs the collector at
// fleetsource.GCPercent and puts the previous target back when it ends;
// GOGC, when set, is left to decide. (Not parallel: the target is the
// process's.)
func TestFleetCollectsAtItsOwnTarget(t *testing.T) {
	before := gcPercent()
	restore := collectAsAFleet(func(string) string { return "" })
	if got := gcPercent(); got != fleetsource.GCPercent {
		t.Errorf("during a fleet the target is %d, want %d", got, fleetsource.GCPercent)
	}
	restore()
	if got := gcPercent(); got != before {
		t.Errorf("after a fleet the target is %d, want %d back", got, before)
	}
	restore = collectAsAFleet(func(k string) string {
		if k == "GOGC" {
			return "400"
		}
		return ""
	})
	if got := gcPercent(); got != before {
		t.Errorf("with GOGC set the fleet changed the target to %d", got)
	}
	restore()
}
