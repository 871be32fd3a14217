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
)

// fleetTitles are the titles of the rows on the screen, in order, with
// "!" before those that need attention.
func fleetTitles(f *Fleet) string {
	var out []string
	for _, r := range f.rows {
		t := fleet.ColTitle.Text(r, fleetNow)
		if r.Attn != fleet.NoAttention {
			t = "!" + t
		}
		out = append(out, t)
	}
	return strings.Join(out, " | ")
}

func TestFleetKeys(t *testing.T) {
	t.Parallel()
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{})
	if f.cursor != 0 || f.rows[0].Attn != fleet.AttnConfirm {
		t.Fatalf("the first row is not the most urgent: %s", fleetTitles(f))
	}
	// s cycles the sort column, S reverses it; the heading says which.
	pressFleet(f, "s")
	if f.query.Sort != fleet.ColConn || !strings.Contains(f.View(), "sort conn ↑") {
		t.Fatalf("s: sort %v", f.query.Sort.Name())
	}
	pressFleet(f, "s")
	if f.query.Sort != fleet.ColTitle {
		t.Fatalf("s wraps to the first column: %v", f.query.Sort.Name())
	}
	pressFleet(f, "S")
	if !f.query.Desc || !strings.Contains(f.View(), "TITLE↓") {
		t.Fatal("S does not reverse")
	}
	if got := fleetTitles(f); !strings.HasPrefix(got, "!Delete the build cache") ||
		!strings.Contains(got, "Write the release notes | Upgrade the Go toolchain | Fix the ttlcache eviction: try a ring buffer") {
		t.Fatalf("by title, reversed: %s", got)
	}
	// The cursor stays on the conversation it was moved to.
	pressFleet(f, "j", "j")
	sel := f.rows[f.cursor].Ref
	pressFleet(f, "S")
	if f.rows[f.cursor].Ref != sel {
		t.Fatalf("the cursor left %v", sel)
	}
	// / filters as it is typed; enter keeps it, esc clears it.
	pressFleet(f, "/")
	for _, r := range "ttlcache" {
		f.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if len(f.rows) != 2 || !strings.Contains(f.View(), "/ttlcache") {
		t.Fatalf("filter ttlcache: %s", fleetTitles(f))
	}
	pressFleet(f, "enter")
	if f.filtering || len(f.rows) != 2 || !strings.Contains(f.View(), "filter “ttlcache”") {
		t.Fatal("enter did not keep the filter")
	}
	pressFleet(f, "esc")
	if len(f.rows) != 9 {
		t.Fatalf("esc did not clear the filter: %d rows", len(f.rows))
	}
	pressFleet(f, "/", "x", "esc")
	if f.filtering || f.query.Text != "" || len(f.rows) != 9 {
		t.Fatal("esc in the filter line did not drop it")
	}
	// f cycles the status filter.
	pressFleet(f, "f")
	if f.query.Status != fleet.StatusAttention || len(f.rows) != 4 {
		t.Fatalf("f: %q %d rows", f.query.Status, len(f.rows))
	}
	pressFleet(f, "f", "f", "f")
	if f.query.Status != model.StatusFinished || len(f.rows) != 5 {
		t.Fatalf("f f f f: %q, %s", f.query.Status, fleetTitles(f))
	}
	pressFleet(f, "esc")
	// v groups by source, and drops the source column.
	pressFleet(f, "v")
	v := f.View()
	for _, h := range []string{"─ needs you (4)", "─ cloud (2)", "─ ~/.openhands/conversations (2)", "─ http://127.0.0.1:8000 (1)"} {
		if !strings.Contains(v, h) {
			t.Fatalf("grouped: no heading %q\n%s", h, v)
		}
	}
	if strings.Contains(v, "SOURCE") {
		t.Fatal("grouped by source and still a source column")
	}
	pressFleet(f, "v")
	// G and g go to the last and first rows, as in the monitor.
	pressFleet(f, "G")
	if f.cursor != len(f.rows)-1 {
		t.Fatalf("G: cursor %d of %d rows", f.cursor, len(f.rows))
	}
	pressFleet(f, "g")
	if f.cursor != 0 {
		t.Fatalf("g: cursor %d, want the first row", f.cursor)
	}
	// ? shows every key; esc closes it.
	pressFleet(f, "?")
	if !strings.Contains(f.View(), "filter by status") {
		t.Fatalf("help:\n%s", f.View())
	}
	pressFleet(f, "esc")
	if strings.Contains(f.View(), "filter by status") {
		t.Fatal("esc did not close the help")
	}
	if cmd := pressFleet(f, "q"); cmd == nil || !reflect.DeepEqual(cmd(), tui.Pop()()) {
		t.Fatal("q does not go back (quit at the root)")
	}
	if cmd := pressFleet(f, "ctrl+c"); cmd == nil || !reflect.DeepEqual(cmd(), tea.Interrupt()) {
		t.Fatal("ctrl+c does not interrupt")
	}
}

func TestFleetSeen(t *testing.T) {
	t.Parallel()
	f := fleetFixtureScreen(t, 160, 48, FleetOptions{})
	pressFleet(f, "G")
	pressFleet(f, "k", "k", "k", "k", "k")
	r := f.rows[f.cursor]
	if r.Attn != fleet.AttnFinished {
		t.Fatalf("not on the finished row: %s at %d", fleetTitles(f), f.cursor)
	}
	pressFleet(f, "u")
	if got, _ := f.fleet.Row(r.Ref); got.Attn != fleet.NoAttention {
		t.Fatal("u did not mark it seen")
	}
	if f.rows[f.cursor].Ref != r.Ref || strings.Contains(fleetTitles(f), "!Fix the ttlcache eviction under load") {
		t.Fatalf("after seen: %s", fleetTitles(f))
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
	want := f.rows[0].Ref
	cmd := pressFleet(f, "enter")
	if cmd == nil || f.opening != want || !strings.Contains(f.View(), "opening… Delete the build cache") {
		t.Fatal("enter did not start opening")
	}
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
	if !ok || !isConv || conv.Opts.Title != "opened" || f.opening.ID != "" {
		t.Fatalf("opened: %#v", push)
	}
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
	if r, _ := f.fleet.Row(c); r.Attn != fleet.AttnFinished {
		t.Fatalf("the finish does not ask for attention: %v", r.Attn)
	}
	conv.Update(tuitest.KeyMsg("j"))
	if r, _ := f.fleet.Row(c); r.Attn != fleet.NoAttention {
		t.Fatalf("a finish watched in the monitor still asks for attention: %v", r.Attn)
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
	feed := make(chan []model.FleetUpdate, 8)
	f := newFleetScreen(t, 80, 24, FleetOptions{Feed: feed})
	history, live := fleetFixture(t)
	feed <- history
	feed <- live
	wait := f.waitFeed()
	msg := wait()
	ups, ok := msg.(fleetUpdatesMsg)
	if !ok || len(ups.ups) != len(history)+len(live) {
		t.Fatalf("a frame did not take every slice waiting: %T", msg)
	}
	f.Update(msg)
	if f.fleet.Len() != 9 {
		t.Fatalf("%d conversations", f.fleet.Len())
	}
	close(feed)
	f.Update(f.waitFeed()())
	if !f.feedDone || !strings.Contains(f.View(), "sources ended") || f.waitFeed() != nil {
		t.Fatal("the end of the feed is not shown")
	}
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
		if want := s.StatusOf(status, false).Render(f.Cells.Pad(label, 11, false)); !strings.Contains(v, want) {
			t.Errorf("%s is not drawn as the header draws it (%q)", status, want)
		}
	}
	if want := s.StatusOf("finished", true).Render(f.Cells.Pad("✓ finished", 11, false)); !strings.Contains(v, want) {
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
	cmd := pressFleet(f, "enter")
	msgs := make(chan tea.Msg, 1)
	go func() { msgs <- cmd() }()
	ctx := <-started
	pressFleet(f, "esc")
	if ctx.Err() == nil || f.opening.ID != "" || strings.Contains(f.View(), "opening…") || !strings.Contains(f.View(), "stopped opening") {
		t.Fatalf("esc did not stop the open (context %v):\n%s", ctx.Err(), f.View())
	}
	if late := f.Update(<-msgs); late != nil {
		if _, pushed := late().(tui.PushMsg); pushed {
			t.Fatal("the stopped open's answer pushed its view")
		}
	}
	if pressFleet(f, "enter") == nil || f.opening.ID == "" {
		t.Error("enter does not open again after a stopped open")
	}
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
