package fleetview

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// TestForkOpenedFromTheFleetComparesWithItsParent: D on a fork opened from
// the table compares it with the parent the table draws it under, rather
// than saying the source cannot tell.
func TestForkOpenedFromTheFleetComparesWithItsParent(t *testing.T) {
	t.Parallel()
	feed := make(chan []model.FleetUpdate)
	events := logEvents(tuitest.Trajectory(t, "confirmation_mode"))[:4]
	parent, fork := fleetRef(fleetServer, "aaaaaaaa"), fleetRef(fleetServer, "bbbbbbbb")
	var asked []string
	f := NewFleet(FleetOptions{Feed: feed, NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart },
		Open: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
			asked = append(asked, ref.ID)
			log := reducer.NewLog(nil, 0)
			log.Append(events...)
			title := "Opened: the parent"
			if ref.ID == fork.ID {
				title = "Opened: the fork"
			}
			return conversation.Options{Title: title, Source: "replay", Log: log, NoColor: true}, nil
		}})
	tm := termtest.Start(t, tui.NewModel(f), 160, 48)
	w := &tuitest.TermWaiter{T: t, Tm: tm}
	feed <- []model.FleetUpdate{
		metaUp(parent, model.ConversationMeta{Title: "The parent conversation"}),
		metaUp(fork, model.ConversationMeta{Title: "Try it another way", ParentID: parent.ID, ForkedFromEvent: events[2].ID}),
	}
	w.Wait("The parent conversation", "Try it another way")
	tm.Type("j")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	w.Wait("Opened: the fork")
	tm.Type("D")
	w.Wait("Opened: the parent")
	tm.Type("qqq")
	tm.Final(t, 5*time.Second)
	if len(asked) != 2 || asked[0] != fork.ID || asked[1] != parent.ID {
		t.Fatalf("opened %v, want the fork then its parent", asked)
	}
}
