package conversation

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// send feeds one message to the model.
func send(m *Conversation, msg tea.Msg) (*Conversation, tea.Cmd) {
	cmd := m.Update(msg)
	settle(m, cmd)
	return m, cmd
}

func TestLiveFollowPinAndReturn(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 300, 9)
	feed := make(chan model.Batch, 1)
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: feed, Title: "live"}, 160, 48)
	if !strings.Contains(screen(m), "connecting") || !strings.Contains(screen(m), "waiting for events") {
		t.Fatalf("empty live screen:\n%s", screen(m))
	}
	m, cmd := send(m, BatchMsg{Batch: model.Batch{Events: evs[:100], Conn: &model.ConnState{Phase: model.PhaseLive}}})
	if cmd == nil {
		t.Fatal("the feed command is not re-armed after a batch")
	}
	// Following: the cursor is on the newest event and the header says
	// LIVE; pinned, it says where the cursor is and how much is new.
	if s := screen(m); cursorOn(s) != "#100" || !strings.Contains(s, "LIVE") || !strings.Contains(s, "connected") {
		t.Fatalf("live, following:\n%s", s)
	}
	m, _ = press(t, m, "k")
	pinned := cursorOn(screen(m))
	if strings.Contains(screen(m), "LIVE") || pinned != "#99" {
		t.Fatalf("k does not pin the cursor:\n%s", screen(m))
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[100:137]}})
	mustCursorOn(t, screen(m), pinned) // new events do not move a pinned cursor
	want := "⏸ 99/137 · +37 new"
	if s := screen(m); !strings.Contains(s, want) {
		t.Fatalf("header does not say %q:\n%s", want, s)
	}
	m, _ = press(t, m, "G")
	if s := screen(m); cursorOn(s) != "#137" || !strings.Contains(s, "LIVE") {
		t.Fatalf("G does not return to live:\n%s", s)
	}
	m, cmd = send(m, BatchMsg{Batch: model.Batch{Events: evs[137:200]}})
	mustCursorOn(t, screen(m), "#200")
	// The feed's command delivers batches, and a closed feed ends it.
	feed <- model.Batch{Events: evs[200:210]}
	for _, msg := range tuitest.Results(t, cmd) {
		m, cmd = send(m, msg)
	}
	if m.Log.Len() != 210 || cmd == nil {
		t.Fatalf("the feed's batch: len %d", m.Log.Len())
	}
	close(feed)
	for _, msg := range tuitest.Results(t, cmd) {
		m, cmd = send(m, msg)
	}
	if cmd != nil {
		t.Fatal("a closed feed is waited on again")
	}
}

func TestConnectionStates(t *testing.T) {
	t.Parallel()
	feed := make(chan model.Batch)
	m := newModel(Options{Log: tuitest.Generated(t, 20, 1), Live: true, Feed: feed}, 160, 48)
	tests := []struct {
		conn model.ConnState
		want string
	}{
		{model.ConnState{Phase: model.PhaseConnecting}, "connecting"},
		{model.ConnState{Phase: model.PhaseLive}, "connected"},
		{model.ConnState{Phase: model.PhaseReconnecting, Attempt: 3, RetryIn: 4 * time.Second}, "reconnecting (3) in 4s"},
		{model.ConnState{Phase: model.PhaseLost, Reason: "authentication rejected", Final: true}, "lost"},
		{model.ConnState{Phase: model.PhaseDone}, "done"},
	}
	for _, tt := range tests {
		c := tt.conn
		next, _ := send(m, BatchMsg{Batch: model.Batch{Conn: &c}})
		if s := screen(next); !strings.Contains(s, tt.want) {
			t.Errorf("%v: header lacks %q:\n%s", c.Phase, tt.want, strings.SplitN(s, "\n", 3)[0])
		}
	}
	next, _ := send(m, BatchMsg{Batch: model.Batch{Warnings: []string{"events/x.json: bad json"}}})
	if !strings.Contains(screen(next), "1 warning") {
		t.Error("warnings are not counted in the header")
	}
}

func TestProvisionalAndConfirmedFinish(t *testing.T) {
	t.Parallel()
	log := tuitest.Recorded(t, fixtures.Echo)
	log.Append(tuitest.Decode(t, []byte(tuitest.StateUpdate("f0000000-0000-4000-8000-000000000001", "2026-01-27T03:56:25.000000", "execution_status", "finished"))))
	// Live: a recording's last status would be final (reducer.Verdict).
	m := newModel(Options{Log: log, Live: true}, 160, 48)
	m, _ = press(t, m, "G")
	if !strings.Contains(screen(m), "status finished?") {
		t.Fatalf("a per-field finish is not marked provisional:\n%s", screen(m))
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: []model.Event{
		tuitest.Decode(t, []byte(tuitest.FullState("f0000000-0000-4000-8000-000000000002", "2026-01-27T03:56:26.000000", "finished")))}}})
	m, _ = press(t, m, "G")
	if s := screen(m); !strings.Contains(s, "status ✓ finished ") || strings.Contains(s, "status finished?") {
		t.Fatalf("a full_state finish is not confirmed:\n%s", s)
	}
}

func TestMouse(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 300, 2)}, 160, 48)
	l := m.layout()
	m, _ = send(m, tea.MouseWheelMsg{X: 10, Y: l.list.y + 3, Button: tea.MouseWheelDown})
	if want := newModel(Options{Log: m.Log}, 160, 48).stepped(WheelStep); m.cursor != want {
		t.Fatalf("wheel down: cursor %d, want %d", m.cursor, want)
	}
	rows := m.visibleRows(l.list.h - 1)
	m, _ = send(m, tea.MouseClickMsg{X: 10, Y: l.list.y + 1 + 5, Button: tea.MouseLeft})
	if m.cursor != rows[5] {
		t.Fatalf("click on row 5: cursor %d, want %d", m.cursor, rows[5])
	}
	m, _ = send(m, tea.MouseClickMsg{X: l.scrubber.w - 1, Y: l.scrubber.y, Button: tea.MouseLeft})
	if m.cursor != m.Log.Len()-1 {
		t.Fatalf("click on the scrubber's end: cursor %d", m.cursor)
	}
	m, _ = send(m, tea.MouseClickMsg{X: l.side.x + 2, Y: l.side.y + 1, Button: tea.MouseLeft})
	if m.focus != paneTimeline {
		t.Fatalf("click on the timeline focuses it: %d", m.focus)
	}
	m, _ = send(m, tea.MouseWheelMsg{X: l.side.x + 2, Y: l.side.y + 1, Button: tea.MouseWheelUp})
	if m.scroll[paneTimeline] != WheelStep {
		t.Fatalf("wheel over the timeline scrolls it: %d", m.scroll[paneTimeline])
	}
}

func TestBackgroundColorSwitchesPalette(t *testing.T) {
	t.Parallel()
	m := NewConversation(Options{Log: tuitest.Generated(t, 10, 1)})
	m, _ = send(m, tuitest.WindowSize(100, 30))
	if !colourRe.MatchString(m.View()) {
		t.Fatal("colours off without NO_COLOR")
	}
	if cmd := m.Init(); cmd == nil {
		t.Fatal("Init does not ask for the background colour")
	}
	send(m, tea.BackgroundColorMsg{Color: whiteColor{}})
	light := m.View()
	send(m, tea.BackgroundColorMsg{Color: blackColor{}})
	if dark := m.View(); light == dark {
		t.Fatal("light and dark backgrounds give the same palette")
	}
	plain := NewConversation(Options{Log: m.Log, NoColor: true})
	plain, _ = send(plain, tuitest.WindowSize(100, 30))
	plain, _ = send(plain, tea.BackgroundColorMsg{Color: blackColor{}})
	if colourRe.MatchString(plain.View()) {
		t.Fatal("the background answer turns colours back on under NO_COLOR")
	}
}

// colourRe matches an SGR sequence that sets a colour (foreground or
// background, of any palette), not only attributes.
var colourRe = regexp.MustCompile(`\x1b\[(?:[0-9;:]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:[;:][0-9;:]*)?m`)

type whiteColor struct{}

func (whiteColor) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

type blackColor struct{}

func (blackColor) RGBA() (r, g, b, a uint32) { return 0, 0, 0, 0xffff }
