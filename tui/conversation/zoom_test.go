package conversation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/tui/internal/tuitest"
)

// zoomSizes are the sizes the zoom's goldens are drawn at: a small
// terminal, where the zoom takes the summary's rows too, and a wide one,
// where it takes the side column.
var zoomSizes = [][2]int{{80, 24}, {200, 50}}

// zoomedInspector is the inspector on a failed terminal run, zoomed.
func zoomedInspector(t *testing.T, w, h int) *Conversation {
	t.Helper()
	m := newModel(Options{Log: tuitest.ErrorLog(t), Title: "hello world, then errors", Source: "replay ./errors"}, w, h)
	m, _ = press(t, m, "]", "enter", "Z")
	return m
}

// TestGoldenZoomedInspector: Z gives the inspector the whole body of the
// screen: no side column on a wide screen, no summary strip on a small
// one.
func TestGoldenZoomedInspector(t *testing.T) {
	t.Parallel()
	for _, size := range zoomSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := zoomedInspector(t, size[0], size[1])
			out := screen(m)
			tuitest.AssertScreenShape(t, out, size[0], size[1])
			golden.RequireEqual(t, out)
		})
	}
}

// TestZoomTogglesThePaneWidth: Z widens the inspector to the terminal's
// width (its markdown is laid out for it) and Z again gives the side
// column back; a focused side pane zooms to the whole body, and the list
// comes back with it.
func TestZoomTogglesThePaneWidth(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.ErrorLog(t)}, 200, 50)
	m, _ = press(t, m, "]", "enter")
	if w := m.layout().list.w; w >= 200 {
		t.Fatalf("the unzoomed inspector is %d wide", w)
	}
	if !strings.Contains(screen(m), "Status timeline") {
		t.Fatal("the side column is not drawn before the zoom")
	}
	m, _ = press(t, m, "Z")
	if w := m.layout().list.w; w != 200 {
		t.Errorf("the zoomed inspector is %d wide, want 200", w)
	}
	if out := screen(m); strings.Contains(out, "Status timeline") || strings.Contains(out, "Metrics") {
		t.Errorf("the zoomed inspector leaves the side column:\n%s", out)
	}
	m, _ = press(t, m, "Z")
	if w := m.layout().list.w; w >= 200 || !strings.Contains(screen(m), "Status timeline") {
		t.Errorf("Z again does not give the side column back (list %d wide)", w)
	}

	m, _ = press(t, m, "esc", "3", "Z")
	l := m.layout()
	if l.side.w != 200 || l.list.h != 0 {
		t.Errorf("the zoomed metrics pane is %+v, the list %+v", l.side, l.list)
	}
	out := screen(m)
	if !strings.Contains(out, "Metrics") || strings.Contains(out, "Status timeline") || strings.Contains(out, "Events") {
		t.Errorf("the zoomed metrics pane is not alone:\n%s", out)
	}
	m, _ = press(t, m, "esc")
	if l := m.layout(); l.list.w != 200 || l.list.h == 0 {
		t.Errorf("esc from the zoomed pane does not give the list the body: %+v", l.list)
	}
}
