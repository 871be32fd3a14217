package fleetview

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/client/fleetsource"
	"ohwatch/model"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// TestFleetRootThatDoesNotExist: a local root that does not exist (a
// HOME with no ~/.openhands) is said so in the heading, as ls says it,
// not "reconnect #0", and in the empty table, whole at 80 columns too. The real local source reports it; the golden names
// the root as a person's would be named.
func TestFleetRootThatDoesNotExist(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "home", ".openhands", "conversations")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	feed := fleetsource.Watch(ctx, []fleetsource.Source{fleetsource.Local(root, fleetsource.LocalOptions{})}, fleetsource.Options{})
	var said model.FleetUpdate
	bound := time.After(time.Minute) // a failure bound only
	for said.Batch.Conn == nil {
		select {
		case ups := <-feed:
			for _, u := range ups {
				if u.Ref.ID == "" && u.Batch.Conn != nil {
					said = u
				}
			}
		case <-bound:
			t.Fatal("the local source never said its root is missing")
		}
	}
	f := newFleetScreen(t, 300, 24, FleetOptions{Where: root})
	feedFleet(f, []model.FleetUpdate{said})
	if v := f.View(); !strings.Contains(v, root+": does not exist") || strings.Contains(v, "reconnect #0") {
		t.Fatalf("the heading does not say the root is missing:\n%s", v)
	}
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		f := newFleetScreen(t, size[0], size[1], FleetOptions{Where: fleetLocal})
		u := said
		u.Ref.Source = fleetLocal
		feedFleet(f, []model.FleetUpdate{u})
		out := f.View()
		tuitest.AssertScreenShape(t, out, size[0], size[1])
		// The heading may cut it at 80 columns: the empty table says it whole.
		if !strings.Contains(out, "\n     does not exist (listed once created)") {
			t.Errorf("%dx%d: the empty table does not say why:\n%s", size[0], size[1], out)
		}
		t.Run(strings.Join([]string{conversation.Itoa(size[0]), conversation.Itoa(size[1])}, "x"), func(t *testing.T) { golden.RequireEqual(t, out) })
	}
}
