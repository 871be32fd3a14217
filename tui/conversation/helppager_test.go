package conversation

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestHelpReadsKeysRatherThanClosing: on the conversation's help, g, G and
// Z scroll or are answered with a note, never closing the help and never
// acting on the view beneath; "/" finds a key; esc closes.
func TestHelpReadsKeysRatherThanClosing(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: tuitest.Generated(t, 40, 1), Title: "help", NoColor: true})
	tm := termtest.Start(t, m, 80, 24)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	w.Wait("1/40")
	tm.Type("?")
	w.Wait("Keys  1-19 of")
	tm.Type("G")
	w.Wait(" of ")
	tm.Type("g")
	w.Wait("1-19")
	tm.Type("Z")
	w.Wait("esc, ? or q closes the help")
	tm.Type("/zoom")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	w.Wait("zoom the pane", "j/k g/G scroll")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Type("q")
	root := tm.Final(t, 5*time.Second).(*tui.Model).Root().(*Conversation)
	if root.showHelp || root.zoom || root.cursor != 0 {
		t.Fatalf("help %v zoom %v cursor %d: a key read by the help acted on the view", root.showHelp, root.zoom, root.cursor)
	}
}

// TestHelpFindSaysWhenItWraps: n goes on with the last find and says so
// when it starts again from the top; a query that matches nothing says so.
func TestHelpFindSaysWhenItWraps(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 40, 1), Title: "help"}, 80, 24)
	m, _ = press(t, m, "?", "/")
	m = typeText(t, m, "zoom")
	m, _ = press(t, m, "enter")
	at := m.help.Hit
	for k := 0; k < 5 && !strings.Contains(screen(m), "found again from the top"); k++ {
		m, _ = press(t, m, "n")
	}
	if !strings.Contains(screen(m), "found again from the top") || m.help.Hit != at {
		t.Fatalf("n never wrapped back to line %d (at %d):\n%s", at, m.help.Hit, screen(m))
	}
	m, _ = press(t, m, "/")
	m = typeText(t, m, "qqqq")
	if !strings.Contains(screen(m), "no key matches “qqqq”") {
		t.Fatalf("a find that matches nothing says nothing:\n%s", screen(m))
	}
}

// TestLiveViewOffersNoReplayControls: a live view neither lists play and
// speed (footer, help) nor acts on them; space says why.
func TestLiveViewOffersNoReplayControls(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: tuitest.Generated(t, 20, 1), Live: true, Feed: make(chan model.Batch), Title: "live", NoColor: true})
	tm := termtest.Start(t, m, 160, 48)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	w.Wait("not live", "? help")
	tm.Type("k ")
	w.Wait("live: nothing to play back")
	tm.Type("+?")
	w.Wait("Keys  1-43 of")
	tm.Type("q")
	tm.Type("q")
	root := tm.Final(t, 5*time.Second).(*tui.Model).Root().(*Conversation)
	if root.play.on || root.play.speed != 1 {
		t.Fatalf("live: play %v speed %v", root.play.on, root.play.speed)
	}
	v := newModel(Options{Log: tuitest.Generated(t, 20, 1), Live: true, Feed: make(chan model.Batch), Title: "live"}, 160, 48)
	v, _ = press(t, v, "k")
	if out := screen(v); strings.Contains(out, "space play") {
		t.Fatalf("a live footer offers play:\n%s", out)
	}
	v, _ = press(t, v, "?")
	if out := screen(v); strings.Contains(out, "play/pause") || strings.Contains(out, "faster") {
		t.Fatalf("a live help offers replay controls:\n%s", out)
	}
}
