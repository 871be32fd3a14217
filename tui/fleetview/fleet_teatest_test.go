package fleetview

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// TestEndToEndFleetTable runs the fleet table as a program over a live
// feed: the history arrives, then live changes move rows into "needs you",
// a key re-sorts, and q quits.
func TestEndToEndFleetTable(t *testing.T) {
	t.Parallel()
	feed := make(chan []model.FleetUpdate)
	f := NewFleet(FleetOptions{Feed: feed, NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart }})
	tm := termtest.Start(t, tui.NewModel(f), 160, 48)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	history, live := fleetFixture(t)
	feed <- history
	w.Wait("Delete the build cache", "Upgrade the Go toolchain")
	feed <- live
	w.Wait("4 need you", "Migrate the schema")
	tm.Send(tea.KeyPressMsg{Code: 's', Text: "s"})
	w.Wait("CONN↑")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.Final(t, 5*time.Second)
}

// TestEndToEndFleetDrillDown opens a conversation from the table in the
// full monitor and comes back with esc: the table went on folding every
// other conversation meanwhile, and goes on after.
func TestEndToEndFleetDrillDown(t *testing.T) {
	t.Parallel()
	feed := make(chan []model.FleetUpdate)
	convFeed := make(chan model.Batch, 1)
	var asked model.ConversationRef
	f := NewFleet(FleetOptions{Feed: feed, NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart },
		Open: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
			asked = ref
			return conversation.Options{Title: "Opened: the build cache", Source: "ws 127.0.0.1:8000", Live: true,
				Log: reducer.NewLog(nil, 0), Feed: convFeed, NoColor: true}, nil
		}})
	tm := termtest.Start(t, tui.NewModel(f), 160, 48)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	history, live := fleetFixture(t)
	feed <- history
	w.Wait("Delete the build cache", "Upgrade the Go toolchain")
	// Filter down to the one to open, and open it.
	for _, k := range "/build cache" {
		tm.Send(tea.KeyPressMsg{Code: k, Text: string(k)})
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	convFeed <- model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}, Events: logEvents(tuitest.Recorded(t, fixtures.Confirm))[:3]}
	w.Wait("Opened: the build cache", "system prompt")
	if asked.ID != "3c1d2e4f" {
		t.Fatalf("opened %v", asked)
	}
	// The fleet streams while the conversation is on top.
	feed <- live
	// esc closes nothing in the conversation: it goes back to the table,
	// which has folded the live slice meanwhile.
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	w.Wait("1 need you", "filter “build cache”")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape}) // clears the filter
	w.Wait("4 need you", "Migrate the schema")
	// And it goes on streaming.
	late := fleetRef(fleetServer, "late")
	feed <- []model.FleetUpdate{metaUp(late, model.ConversationMeta{Title: "A conversation started just now"}), connUp(late, model.PhaseLive)}
	w.Wait("A conversation started just now")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if v := ansi.Strip(tm.Final(t, 5*time.Second).(*tui.Model).Root().View()); !strings.Contains(v, "10 conversations") {
		t.Fatalf("not 10 conversations at the end:\n%s", v)
	}
}

// TestEndToEndFleetOpensAFork opens a conversation from the table, goes to
// the event a fork was made from (the fleet lists the fork under it), and
// opens the fork from there with O, over the conversation; esc comes back
// to the conversation, and esc again to the table.
func TestEndToEndFleetOpensAFork(t *testing.T) {
	t.Parallel()
	feed := make(chan []model.FleetUpdate)
	events := logEvents(tuitest.Recorded(t, fixtures.Confirm))[:4]
	parent, fork := fleetRef(fleetServer, "aaaaaaaa"), fleetRef(fleetServer, "bbbbbbbb")
	var asked []string
	f := NewFleet(FleetOptions{Feed: feed, NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart },
		Open: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
			asked = append(asked, ref.ID)
			convFeed := make(chan model.Batch, 1)
			title := "Opened: the parent"
			if ref.ID == fork.ID {
				title = "Second screen, a fork"
			}
			convFeed <- model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}, Events: events}
			return conversation.Options{Title: title, Source: "ws 127.0.0.1:8000", Live: true, Log: reducer.NewLog(nil, 0), Feed: convFeed, NoColor: true}, nil
		}})
	tm := termtest.Start(t, tui.NewModel(f), 160, 48)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	feed <- []model.FleetUpdate{
		metaUp(parent, model.ConversationMeta{Title: "The parent conversation"}),
		metaUp(fork, model.ConversationMeta{Title: "Try it another way", ParentID: parent.ID, ForkedFromEvent: events[2].ID}),
	}
	w.Wait("The parent conversation", "Try it another way")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	w.Wait("Opened: the parent")
	for _, k := range ":" + tui.Ordinal(2) {
		tm.Send(tea.KeyPressMsg{Code: k, Text: string(k)})
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	w.Wait("forked here: fork bbbbbbbb Try it another way")
	tm.Send(tea.KeyPressMsg{Code: 'O', Text: "O"})
	w.Wait("Second screen, a fork")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	w.Wait("forked here: fork bbbbbbbb")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape}) // closes the inspector
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	w.Wait("The parent conversation", "Try it another way")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.Final(t, 5*time.Second)
	if len(asked) != 2 || asked[0] != parent.ID || asked[1] != fork.ID {
		t.Fatalf("opened %v", asked)
	}
}
