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
	if root.cursor != 6 || root.warnList.open {
		t.Fatalf("enter on the first warning: cursor %s, list open %v", tui.Ordinal(root.cursor), root.warnList.open)
	}
	if !strings.Contains(ansi.Strip(root.View()), "2 warnings (W)") {
		t.Fatalf("the header no longer counts the warnings:\n%s", root.View())
	}
}
