package fleetview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// loopFleet is a fleet in which `serve --loop` started the same two
// recordings again and again: each rerun a new id and a later start,
// the same title. One title is its own and stays as it is.
func loopFleet(t *testing.T, w, h int) *Fleet {
	t.Helper()
	f := newFleetScreen(t, w, h, FleetOptions{Where: fleetServer})
	var ups []model.FleetUpdate
	start := fleetNow.Add(-50 * time.Minute)
	for run := range 3 {
		for k, title := range []string{"Fix the ttlcache eviction under load", "Upgrade the Go toolchain"} {
			id := fmt.Sprintf("%x%x0c4f9e2b7d", 0xa1+run*16+k, 0x3e+run)
			at := start.Add(time.Duration(run*15+k*2) * time.Minute)
			status := model.StatusFinished
			if run == 2 {
				status = model.StatusRunning
			}
			ups = append(ups, metaUp(fleetRef(fleetServer, id), model.ConversationMeta{Title: title, Status: status,
				CreatedAt: at, UpdatedAt: at.Add(12 * time.Minute)}))
		}
	}
	ups = append(ups, metaUp(fleetRef(fleetServer, "5d0e"), model.ConversationMeta{Title: "Write the release notes",
		Status: model.StatusRunning, CreatedAt: start, UpdatedAt: fleetNow.Add(-time.Minute)}))
	feedFleet(f, ups)
	return f
}

// TestGoldenFleetReruns: rows that share a title (reruns under `serve
// --loop`) say when each run started, and the start of its id where the
// title column has room; a title of its own is drawn as it is.
func TestGoldenFleetReruns(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			f := loopFleet(t, size[0], size[1])
			out := f.View()
			tuitest.AssertScreenShape(t, out, size[0], size[1])
			for _, want := range []string{"Fix the ttlcach… · 11:10:00", "Upgrade the Go … · 11:42:00"} {
				if size[0] == 80 && !strings.Contains(out, want) {
					t.Errorf("no %q:\n%s", want, out)
				}
			}
			if size[0] == 200 && !strings.Contains(out, "Fix the ttlcache eviction under load · 11:40:00 · c1400c4f") {
				t.Errorf("no start time and short id:\n%s", out)
			}
			if strings.Contains(out, "Write the release notes ·") {
				t.Errorf("a title of its own got a start time:\n%s", out)
			}
			golden.RequireEqual(t, out)
		})
	}
}
