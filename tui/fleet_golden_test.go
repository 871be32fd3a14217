package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenFleet draws the fleet table at the golden sizes: as it opens
// on the fixture (the attention group on top), grouped by source with the
// cursor moved, filtered by text, and its help.
func TestGoldenFleet(t *testing.T) {
	scenarios := []struct {
		name string
		keys []string
		text string
	}{
		{"fleet", nil, ""},
		{"fleet_grouped", []string{"g", "j", "j", "j", "j", "j"}, ""},
		{"fleet_filtered", []string{"/"}, "cache"},
		{"fleet_help", []string{"?"}, ""},
	}
	for _, sc := range scenarios {
		for _, size := range goldenSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				f := fleetFixtureScreen(t, size[0], size[1], FleetOptions{})
				pressFleet(f, sc.keys...)
				for _, r := range sc.text {
					pressFleet(f, string(r))
				}
				out := f.View()
				assertScreenShape(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}
