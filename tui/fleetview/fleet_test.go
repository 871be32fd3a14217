package fleetview

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/fleet"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
	"ohwatch/tui/text"
)

func TestFleetKeys(t *testing.T) {
	t.Parallel()
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{})
	d := drive(t, f, 160, 48)
	if rows, sel := tableRows(d); sel != 0 || !strings.HasPrefix(rows[0], "!Delete the build cache") || !strings.Contains(d.Row(3), "waiting") {
		t.Fatalf("the first row is not the most urgent: %s", shownTitles(d))
	}
	// s cycles the sort column, S reverses it; the heading says which.
	d.Press("s").Shows("sort conn ↑", "CONN↑")
	d.Press("s").Shows("sort title ↑", "TITLE↑")
	d.Press("S").Shows("sort title ↓", "TITLE↓")
	if got := shownTitles(d); !strings.HasPrefix(got, "!Delete the build cache") ||
		!strings.Contains(got, "Write the release notes | Upgrade the Go toolchain | Fix the ttlcache eviction: try a ring b…") {
		t.Fatalf("by title, reversed: %s", got)
	}
	// The cursor stays on the conversation it was moved to.
	d.Press("j", "j")
	sel := selectedTitle(d)
	if d.Press("S"); selectedTitle(d) != sel {
		t.Fatalf("the cursor left %q for %q", sel, selectedTitle(d))
	}
	// / filters as it is typed; enter keeps it, esc clears it.
	d.Press("/").Type("ttlcache").Shows("/ttlcache", "(2 shown)")
	if rows, _ := tableRows(d); len(rows) != 2 {
		t.Fatalf("filter ttlcache: %s", shownTitles(d))
	}
	d.Press("enter").Shows("filter “ttlcache”", "(2 shown)", "j/k move").Hides("/ttlcache")
	d.Press("esc").Hides("shown)", "filter “")
	if rows, _ := tableRows(d); len(rows) != 9 {
		t.Fatalf("esc did not clear the filter: %s", shownTitles(d))
	}
	d.Press("/", "x", "esc").Hides("/x", "filter “", "shown)").Shows("j/k move")
	if rows, _ := tableRows(d); len(rows) != 9 {
		t.Fatalf("esc in the filter line did not drop it: %s", shownTitles(d))
	}
	// f cycles the status filter.
	d.Press("f").Shows("status needs you")
	if rows, _ := tableRows(d); len(rows) != 4 {
		t.Fatalf("f: %s", shownTitles(d))
	}
	d.Press("f", "f", "f").Shows("status finished")
	if rows, _ := tableRows(d); len(rows) != 5 {
		t.Fatalf("f f f f: %s", shownTitles(d))
	}
	d.Press("esc")
	// v groups by source, and drops the source column.
	d.Press("v").Shows("─ needs you (4)", "─ cloud (2)", "─ ~/.openhands/conversations (2)", "─ http://127.0.0.1:8000 (1)").Hides("SOURCE")
	d.Press("v")
	// G and g go to the last and first rows, as in the monitor.
	if rows, sel := tableRows(d.Press("G")); sel != len(rows)-1 {
		t.Fatalf("G: on row %d of %d", sel, len(rows))
	}
	if _, sel := tableRows(d.Press("g")); sel != 0 {
		t.Fatalf("g: on row %d, want the first", sel)
	}
	// ? shows every key; esc closes it.
	d.Press("?").Shows("filter by status")
	d.Press("esc").Hides("filter by status")
	// q and ctrl+c answer with the program's commands: the table's own
	// answer is read, as the router that acts on it would.
	if cmd := f.Update(tuitest.KeyMsg("q")); cmd == nil || !reflect.DeepEqual(cmd(), tui.Pop()()) {
		t.Fatal("q does not go back (quit at the root)")
	}
	if cmd := f.Update(tuitest.KeyMsg("ctrl+c")); cmd == nil || !reflect.DeepEqual(cmd(), tea.Interrupt()) {
		t.Fatal("ctrl+c does not interrupt")
	}
}

func TestFleetSeen(t *testing.T) {
	t.Parallel()
	d := drive(t, fleetFixtureScreen(t, 160, 48, FleetOptions{}), 160, 48)
	d.Press("G", "k", "k", "k", "k", "k")
	if rows, sel := tableRows(d); rows[sel] != "!Fix the ttlcache eviction under load" {
		t.Fatalf("not on the finished row: %s at %d", shownTitles(d), sel)
	}
	d.Press("u")
	if rows, sel := tableRows(d); rows[sel] != "Fix the ttlcache eviction under load" || strings.Contains(shownTitles(d), "!Fix the ttlcache eviction under load") {
		t.Fatalf("u did not mark it seen, or the cursor left it: %s at %d", shownTitles(d), sel)
	}
}

func TestFleetOpen(t *testing.T) {
	t.Parallel()
	var asked model.ConversationRef
	opened := conversation.Options{Title: "opened"}
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Open: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
		asked = ref
		if ref.ID == "e0" {
			return conversation.Options{}, errors.New("no such conversation")
		}
		return opened, nil
	}})
	d := drive(t, f, 160, 48)                 // reads the screen; the commands are run by hand
	want := fleetRef(fleetServer, "3c1d2e4f") // the first row
	cmd := pressFleet(f, "enter")
	if cmd == nil {
		t.Fatal("enter did not start opening")
	}
	d.Shows("opening… Delete the build cache")
	// The table keeps streaming while it opens.
	_, live := fleetFixture(t)
	feedFleet(f, live)
	msg := cmd()
	if asked != want {
		t.Fatalf("Open asked for %v, want %v", asked, want)
	}
	cmd = f.Update(msg)
	push, ok := cmd().(tui.PushMsg)
	conv, isConv := push.Screen.(*fleetConversation)
	if !ok || !isConv || conv.Opts.Title != "opened" {
		t.Fatalf("opened: %#v", push)
	}
	d.Hides("opening…")
	// Opening it again asks Open again: a view left was released.
	asked = model.ConversationRef{}
	cmd = pressFleet(f, "enter")
	if again, ok := f.Update(cmd())().(tui.PushMsg); !ok || again.Screen == push.Screen || asked != want {
		t.Fatal("a conversation opened again was not loaded again")
	}
	// A failure says why, in the footer.
	pressFleet(f, "j")
	cmd = pressFleet(f, "enter")
	f.Update(cmd())
	if !strings.Contains(f.View(), "could not open e0: no such conversation") {
		t.Fatalf("no error shown:\n%s", f.View())
	}
	// A finish watched in the monitor does not ask for attention back in
	// the table: a key pressed there is a look at it.
	c := fleetRef(fleetServer, "3c1d2e4f")
	feedFleet(f, []model.FleetUpdate{eventsUp(c, statusEvent("w-run", model.StatusRunning, fleetNow), statusEvent("w-fin", model.StatusFinished, fleetNow))})
	if got := shownTitles(d); !strings.Contains(got, "!Delete the build cache") {
		t.Fatalf("the finish does not ask for attention: %s", got)
	}
	conv.Update(tuitest.KeyMsg("j"))
	if got := shownTitles(d); !strings.Contains(got, "Delete the build cache") || strings.Contains(got, "!Delete the build cache") {
		t.Fatalf("a finish watched in the monitor still asks for attention: %s", got)
	}
	// Without Open, enter does nothing.
	g := fleetFixtureScreen(t, 80, 24, FleetOptions{})
	if cmd := pressFleet(g, "enter"); cmd != nil {
		t.Fatal("enter without Open")
	}
}

func TestFleetNotifies(t *testing.T) {
	t.Parallel()
	for _, notify := range []bool{true, false} {
		t.Run(fmt.Sprint(notify), func(t *testing.T) {
			clock := fleetStart
			f := newFleetScreen(t, 80, 24, FleetOptions{Notify: notify, Now: func() time.Time { return clock }})
			clock = fleetNow
			history, live := fleetFixture(t)
			// The history raises nothing: it is not news.
			if cmd := f.Update(fleetUpdatesMsg{ups: history}); rawOf(t, cmd) != "" {
				t.Fatalf("history rang: %q", rawOf(t, cmd))
			}
			got := rawOf(t, f.Update(fleetUpdatesMsg{ups: live}))
			if !notify {
				if got != "" {
					t.Fatalf("--no-notify rang: %q", got)
				}
				return
			}
			want := "\a\x1b]9;ohwatch: Delete the build cache on the shared runner - waiting for your confirmation, and 3 more need you\x07" +
				"\x1b]777;notify;ohwatch: Delete the build cache on the shared runner;waiting for your confirmation, and 3 more need you\x07"
			if got != want {
				t.Fatalf("notification %q, want %q", got, want)
			}
			// One conversation alone is named, its title made safe.
			c := fleetRef(fleetServer, "late")
			at := fleetNow
			f.Update(fleetUpdatesMsg{ups: []model.FleetUpdate{metaUp(c, model.ConversationMeta{Title: "Ship;it\x1b]0;x\x07"}),
				connUp(c, model.PhaseLive), eventsUp(c, statusEvent("late-1", model.StatusRunning, at))}})
			// Within a second of the last, it is held, and rings once the
			// second has passed.
			cmd := f.Update(fleetUpdatesMsg{ups: []model.FleetUpdate{eventsUp(c, statusEvent("late-2", model.StatusError, at))}})
			if got := rawOf(t, cmd); got != "" {
				t.Fatalf("rang twice within a second: %q", got)
			}
			clock = clock.Add(time.Second)
			got = rawOf(t, f.Update(fleetFlushMsg{Addr: f.Addr()}))
			want = "\a\x1b]9;ohwatch: Ship it - the run ended in an error\x07\x1b]777;notify;ohwatch: Ship it;the run ended in an error\x07"
			if got != want {
				t.Fatalf("notification %q, want %q", got, want)
			}
		})
	}
}

// rawOf is what a command writes to the terminal as it is (tea.Raw),
// looking into batches; "" when it writes nothing.
func rawOf(tb testing.TB, cmd tea.Cmd) string {
	tb.Helper()
	if cmd == nil || tuitest.IsTick(cmd) || tuitest.IsFleetFeedWait(cmd) {
		return "" // a tick, or a feed wait: these tests hand slices to Update
	}
	msg := tuitest.AnswerOf(tb, cmd)
	if b, ok := msg.(tea.BatchMsg); ok {
		var out string
		for _, c := range b {
			out += rawOf(tb, c)
		}
		return out
	}
	if r, ok := msg.(tea.RawMsg); ok {
		return fmt.Sprint(r.Msg)
	}
	return ""
}

func TestFleetFeed(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		feed := make(chan []model.FleetUpdate, 8)
		f := newFleetScreen(t, 80, 24, FleetOptions{Feed: feed})
		d := drive(t, f, 80, 24).Run(f.Init())
		history, live := fleetFixture(t)
		feed <- history
		feed <- live
		// One frame takes every slice waiting: the history's
		// conversations and the live slice's news of the Cloud's listing
		// alike.
		if d.PendingOf(tuitest.IsFleetFeedWait) != 1 {
			t.Fatalf("%d waits on the feed; want one", d.PendingOf(tuitest.IsFleetFeedWait))
		}
		d.RunWaiting().Shows("9 conversations", "cloud: reconnect #3")
		close(feed)
		d.RunWaiting().Shows("sources ended")
		if d.PendingOf(tuitest.IsFleetFeedWait) != 0 {
			t.Fatal("the table still waits on a feed that ended")
		}
	})
}

func TestFleetColours(t *testing.T) {
	t.Parallel()
	f := NewFleet(FleetOptions{Profile: colorprofile.TrueColor, Theme: theme.DarkMode, Now: func() time.Time { return fleetNow }})
	f.SetSize(160, 48)
	history, live := fleetFixture(t)
	feedFleet(f, history, live)
	pressFleet(f, "G") // the selected row is drawn in one style
	s := theme.New(true, colorprofile.TrueColor)
	v := f.View()
	for status, label := range map[string]string{"error": "error", "stuck": "stuck", "waiting_for_confirmation": "waiting"} {
		if want := s.StatusOf(status, false).Render(text.Cells{}.Pad(label, 11, false)); !strings.Contains(v, want) {
			t.Errorf("%s is not drawn as the header draws it (%q)", status, want)
		}
	}
	if want := s.StatusOf("finished", true).Render(text.Cells{}.Pad("✓ finished", 11, false)); !strings.Contains(v, want) {
		t.Errorf("a confirmed finished is not green: %q", want)
	}
}

func TestFleetAnySize(t *testing.T) {
	t.Parallel()
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{})
	for _, size := range [][2]int{{1, 1}, {20, 5}, {40, 10}, {80, 24}, {100, 30}, {120, 40}, {160, 48}, {300, 100}} {
		f.SetSize(size[0], size[1])
		for _, keys := range [][]string{nil, {"G"}, {"v"}, {"?"}, {"esc", "/"}} {
			pressFleet(f, keys...)
			tuitest.AssertScreenShape(t, f.View(), size[0], size[1])
		}
		pressFleet(f, "esc", "esc", "v")
	}
}

// TestEscStopsAnOpenInProgress: esc while a conversation is being opened
// ends the open's context, clears the "opening…" mark, says so, and the
// open's late answer pushes nothing; enter then opens again.
func TestEscStopsAnOpenInProgress(t *testing.T) {
	t.Parallel()
	started := make(chan context.Context, 2)
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{Open: func(ctx context.Context, ref model.ConversationRef) (conversation.Options, error) {
		started <- ctx
		<-ctx.Done()
		return conversation.Options{Title: "too late"}, nil
	}})
	d := drive(t, f, 160, 48)
	// The open waits for its context: its command is run here, off the
	// driver, as the program runs it beside the screen.
	cmd := f.Update(tuitest.KeyMsg("enter"))
	d.Shows("opening…")
	msgs := make(chan tea.Msg, 1)
	go func() { msgs <- cmd() }()
	ctx := <-started
	d.Press("esc").Hides("opening…").Shows("stopped opening")
	if ctx.Err() == nil {
		t.Fatal("esc did not end the open's context")
	}
	if late := f.Update(<-msgs); late != nil {
		if _, pushed := late().(tui.PushMsg); pushed {
			t.Fatal("the stopped open's answer pushed its view")
		}
	}
	if f.Update(tuitest.KeyMsg("enter")) == nil {
		t.Error("enter does not open again after a stopped open")
	}
	d.Shows("opening…")
}

// TestFleetHelpExplainsEveryColumn: the help names every column the table
// can show beyond the title and source, with what it holds.
func TestFleetHelpExplainsEveryColumn(t *testing.T) {
	t.Parallel()
	for _, c := range fleet.Columns() {
		if c == fleet.ColTitle || c == fleet.ColSource {
			continue
		}
		if !strings.Contains(fleetColumnsHelp, c.Name()+" ") {
			t.Errorf("the fleet's help does not explain %s", c.Name())
		}
	}
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{})
	pressFleet(f, "?")
	if !strings.Contains(f.View(), "STEPS LLM steps") {
		t.Fatalf("help:\n%s", f.View())
	}
}
