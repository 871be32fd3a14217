package conversation

import (
	"strings"
	"testing"
	"time"

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
	d := drive(t, Options{Log: tuitest.Generated(t, 40, 1), Title: "help"}, 80, 24)
	d.Shows("1/40", "pending 0").Press("?").Shows("Keys  1-19 of")
	d.Press("G").Hides("Keys  1-19 of").Shows(" of ")
	d.Press("g").Shows("Keys  1-19 of")
	d.Press("Z").Shows("esc, ? or q closes the help")
	d.Press("/").Type("zoom").Press("enter").Shows("zoom the pane", "j/k g/G scroll")
	d.Press("esc", "q").Hides("▌ Keys")
	// The view beneath never moved nor zoomed: the cursor is on the
	// first event and the summary strip keeps its room.
	d.Shows("1/40", "pending 0")
}

// TestHelpFindSaysWhenItWraps: n goes on with the last find and says so
// when it starts again from the top; a query that matches nothing says so.
func TestHelpFindSaysWhenItWraps(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Generated(t, 40, 1), Title: "help"}, 80, 24)
	d.Press("?", "/").Type("zoom").Press("enter")
	// below is what the reference shows under its title line, which
	// says where the find went.
	below := func() string {
		rows := strings.Split(d.Screen(), "\n")
		for i, r := range rows {
			if strings.Contains(r, "▌ Keys") {
				return strings.Join(rows[i+1:], "\n")
			}
		}
		t.Fatalf("the help is not open:\n%s", d.Screen())
		return ""
	}
	at := below()
	for k := 0; k < 5 && !strings.Contains(d.Screen(), "found again from the top"); k++ {
		d.Press("n")
	}
	if !strings.Contains(d.Screen(), "found again from the top") || below() != at {
		t.Fatalf("n never wrapped back to the first find:\n%s\nfirst:\n%s", d.Screen(), at)
	}
	d.Press("/").Type("qqqq").Shows("no key matches “qqqq”")
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
