package fleetview

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/theme"
	"ohwatch/tui/internal/tuitest"
)

// TestGoldenFleet draws the fleet table at the golden sizes: as it opens
// on the fixture (the attention group on top), grouped by source with the
// cursor moved, filtered by text, and its help.
func TestGoldenFleet(t *testing.T) {
	t.Parallel()
	scenarios := []struct {
		name string
		keys []string
		text string
	}{
		{"fleet", nil, ""},
		{"fleet_grouped", []string{"v", "j", "j", "j", "j", "j"}, ""},
		{"fleet_filtered", []string{"/"}, "cache"},
		{"fleet_help", []string{"?"}, ""},
	}
	for _, src := range tuitest.Sources {
		for _, sc := range scenarios {
			if src.Prefix != "" && sc.keys != nil && sc.keys[0] == "?" {
				continue // the help reads no recording: one golden is enough
			}
			for _, size := range tuitest.GoldenSizes {
				t.Run(fmt.Sprintf("%s%s_%dx%d", src.Prefix, sc.name, size[0], size[1]), func(t *testing.T) {
					f := fleetFixtureScreenOn(t, src.Load, size[0], size[1], FleetOptions{})
					pressFleet(f, sc.keys...)
					for _, r := range sc.text {
						pressFleet(f, string(r))
					}
					out := f.View()
					tuitest.AssertScreenShape(t, out, size[0], size[1])
					golden.RequireEqual(t, out)
				})
			}
		}
	}
}

// TestColourGoldensFleet draws the fleet table at 80x24 in every colour
// profile, as the terminal receives it: statuses coloured as the
// conversation header colours them, the attention marks by their reason,
// and with no colour the same said by glyphs.
func TestColourGoldensFleet(t *testing.T) {
	t.Parallel()
	for _, src := range tuitest.Sources {
		for _, p := range tuitest.Profiles {
			t.Run(src.Prefix+p.String(), func(t *testing.T) {
				f := NewFleet(FleetOptions{Profile: p, NoColor: p <= colorprofile.ASCII, Theme: theme.DarkMode,
					Now: func() time.Time { return fleetNow }})
				f.SetSize(80, 24)
				history, live := fleetFixtureOn(t, src.Load)
				feedFleet(f, history, live)
				pressFleet(f, "j")
				var b bytes.Buffer
				w := colorprofile.NewWriter(&b, nil)
				w.Profile = p
				_, _ = w.WriteString(f.View())
				golden.RequireEqual(t, b.String())
			})
		}
	}
}
