package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/model"
)

// TestHelpReadsKeysRatherThanClosing: on the conversation's help, g, G and
// Z scroll or are answered with a note, never closing the help and never
// acting on the view beneath; "/" finds a key; esc closes.
func TestHelpReadsKeysRatherThanClosing(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: generated(t, 40, 1), Title: "help", NoColor: true})
	tm := termtest.Start(t, m, 80, 24)
	w := &termWaiter{t: t, tm: tm}
	w.wait("1/40")
	tm.Type("?")
	w.wait("Keys  1-19 of")
	tm.Type("G")
	w.wait(" of ")
	tm.Type("g")
	w.wait("1-19")
	tm.Type("Z")
	w.wait("esc, ? or q closes the help")
	tm.Type("/zoom")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	w.wait("zoom the pane", "j/k g/G scroll")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Type("q")
	root := tm.Final(t, 5*time.Second).(*Model).Root().(*Conversation)
	if root.showHelp || root.zoom || root.cursor != 0 {
		t.Fatalf("help %v zoom %v cursor %d: a key read by the help acted on the view", root.showHelp, root.zoom, root.cursor)
	}
}

// TestHelpFindSaysWhenItWraps: n goes on with the last find and says so
// when it starts again from the top; a query that matches nothing says so.
func TestHelpFindSaysWhenItWraps(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: generated(t, 40, 1), Title: "help"}, 80, 24)
	m, _ = press(t, m, "?", "/")
	m = typeText(t, m, "zoom")
	m, _ = press(t, m, "enter")
	at := m.help.hit
	for k := 0; k < 5 && !strings.Contains(screen(m), "found again from the top"); k++ {
		m, _ = press(t, m, "n")
	}
	if !strings.Contains(screen(m), "found again from the top") || m.help.hit != at {
		t.Fatalf("n never wrapped back to line %d (at %d):\n%s", at, m.help.hit, screen(m))
	}
	m, _ = press(t, m, "/")
	m = typeText(t, m, "qqqq")
	if !strings.Contains(screen(m), "no key matches “qqqq”") {
		t.Fatalf("a find that matches nothing says nothing:\n%s", screen(m))
	}
}

// TestFleetHelpScrollsAndStaysOpen: the fleet's help scrolls with j, g
// and G and shows where it is; a key it does not read leaves it open.
func TestFleetHelpScrollsAndStaysOpen(t *testing.T) {
	t.Parallel()
	f := NewFleet(FleetOptions{Feed: make(chan []model.FleetUpdate), NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart }})
	tm := termtest.Start(t, NewModel(f), 80, 24)
	w := &termWaiter{t: t, tm: tm}
	tm.Type("?")
	w.wait("1-23 of 31")
	tm.Type("G")
	w.wait("9-31")
	tm.Type("x")
	w.wait("esc, ? or q closes the help")
	tm.Type("g")
	w.wait("1-23 of")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Type("q")
	if got := tm.Final(t, 5*time.Second).(*Model).Root().(*Fleet); got.showHelp {
		t.Fatal("the fleet's help still open after esc")
	}
}

// TestLiveViewOffersNoReplayControls: a live view neither lists play and
// speed (footer, help) nor acts on them; space says why.
func TestLiveViewOffersNoReplayControls(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: generated(t, 20, 1), Live: true, Feed: make(chan model.Batch), Title: "live", NoColor: true})
	tm := termtest.Start(t, m, 160, 48)
	w := &termWaiter{t: t, tm: tm}
	w.wait("not live", "? help")
	tm.Type("k ")
	w.wait("live: nothing to play back")
	tm.Type("+?")
	w.wait("Keys  1-43 of")
	tm.Type("q")
	tm.Type("q")
	root := tm.Final(t, 5*time.Second).(*Model).Root().(*Conversation)
	if root.play.on || root.play.speed != 1 {
		t.Fatalf("live: play %v speed %v", root.play.on, root.play.speed)
	}
	v := newModel(Options{Log: generated(t, 20, 1), Live: true, Feed: make(chan model.Batch), Title: "live"}, 160, 48)
	v, _ = press(t, v, "k")
	if out := screen(v); strings.Contains(out, "space play") {
		t.Fatalf("a live footer offers play:\n%s", out)
	}
	v, _ = press(t, v, "?")
	if out := screen(v); strings.Contains(out, "play/pause") || strings.Contains(out, "faster") {
		t.Fatalf("a live help offers replay controls:\n%s", out)
	}
}
