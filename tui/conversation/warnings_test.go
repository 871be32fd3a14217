package conversation

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestWarningsCanBeRead: the header's "2 warnings" says W lists them; the
// list names the event each is about (the one whose id the warning
// quotes, else the one it came after) and enter jumps there.
func TestWarningsCanBeRead(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 12, 1)
	feed := make(chan model.Batch, 2)
	feed <- model.Batch{Events: evs[:10], Warnings: []string{
		"events/: index gap: event 00006 is missing (before event-00007-" + evs[6].ID + ".json)",
	}}
	feed <- model.Batch{Events: evs[10:], Warnings: []string{"meta.json: JSON is not an object (an array)"}}
	close(feed)
	m := New(Options{Log: reducer.NewLog(nil, 0), Feed: feed, Title: "warned", NoColor: true})
	tm := termtest.Start(t, m, 160, 48)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	w.Wait("2 warnings (W)")
	tm.Type("W")
	w.Wait("Warnings · 2 warnings", "#7     events/: index gap", "#12    meta.json: JSON is not an object")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	w.Wait("7/12")
	tm.Type("q")
	root := tm.Final(t, 5*time.Second).(*tui.Model).Root().(*Conversation)
	out := ansi.Strip(root.View())
	if !strings.Contains(out, "7/12") || strings.Contains(out, "▌ Warnings") {
		t.Fatalf("enter on the first warning did not close the list on its event:\n%s", out)
	}
	if !strings.Contains(out, "2 warnings (W)") {
		t.Fatalf("the header no longer counts the warnings:\n%s", out)
	}
}

// warnedDriver drives a recording of 12 events whose load gave three
// warnings, the first about the 7th event.
func warnedDriver(t *testing.T) *tuitest.Driver {
	t.Helper()
	evs := tuitest.GeneratedEvents(t, 12, 1)
	d := drive(t, Options{Log: reducer.NewLog(nil, 0), Title: "warned"}, 160, 48)
	d.Send(BatchMsg{Batch: model.Batch{Events: evs[:10], Warnings: []string{
		"events/: index gap: event 00006 is missing (before event-00007-" + evs[6].ID + ".json)",
		"events/: a second warning",
	}}})
	d.Send(BatchMsg{Batch: model.Batch{Events: evs[10:], Warnings: []string{"meta.json: JSON is not an object (an array)"}}})
	return d.Send(feedClosedMsg{}).Shows("3 warnings (W)")
}

// TestWarningsListKeys: j/k, g/G move the highlight, esc, q and W close
// the list, which opens again on the line it was left on; the footer
// names the list's keys while it is open.
func TestWarningsListKeys(t *testing.T) {
	t.Parallel()
	d := warnedDriver(t)
	d.Press("W").Shows("▌ Warnings · 3 warnings", "› #7     events/: index gap", "enter jump to its event")
	d.Press("j").Shows("› #10    events/: a second warning")
	d.Press("G").Shows("› #12    meta.json")
	d.Press("g").Shows("› #7 ")
	for _, closeKey := range []string{"esc", "q", "W"} {
		d.Press("j", closeKey).Hides("▌ Warnings").Shows("3 warnings (W)")
		d.Press("W").Shows("› #10    events/: a second warning")
		d.Press("k")
	}
	// Nothing under the list moved while it was read.
	d.Press("esc").Shows("▌ Events · #1/12")
	// enter closes the list on the warning's event.
	d.Press("W", "g", "enter").Hides("▌ Warnings").Shows("▌ Events · #7/12")
}
