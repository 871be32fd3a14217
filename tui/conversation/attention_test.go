package conversation

import (
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// rawOutput runs a command (and those of a batch) and returns what it
// writes to the terminal raw, skipping commands that wait (ticks).
func rawOutput(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		switch msg := msg.(type) {
		case tea.BatchMsg:
			var b strings.Builder
			for _, c := range msg {
				b.WriteString(rawOutput(c))
			}
			return b.String()
		case tea.RawMsg:
			s, _ := msg.Msg.(string)
			return s
		}
	case <-time.After(300 * time.Millisecond):
	}
	return ""
}

// attentionModel is a live model of the first events of the real
// confirmation recording, its socket live, its feed closed so that the
// feed command returns at once.
func attentionModel(t *testing.T, notify bool) *Conversation {
	t.Helper()
	full := tuitest.Recorded(t, fixtures.Confirm)
	log := reducer.NewLog(nil, 0)
	for i := 0; i <= 4; i++ {
		log.Append(full.Event(i))
	}
	feed := make(chan model.Batch)
	close(feed)
	m := newModel(Options{Log: log, Live: true, Feed: feed, Notify: notify, Title: "confirm \x1b]0;pwned\x07 me; now",
		Controls: &tuitest.Controls{}}, 80, 24)
	m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}})
	m, _ = send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000001", "running"))
	return m
}

func TestAttentionWhenWaiting(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		m := attentionModel(t, true)
		if bannerText(m) != "" {
			t.Fatalf("a banner while running: %q", bannerText(m))
		}
		// Pinned in the past, the banner, bell and notification still come.
		m, _ = press(t, m, "g")
		m, cmd := send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000002", "waiting_for_confirmation"))
		out := rawOutput(cmd)
		if !strings.HasPrefix(out, "\a") || !strings.Contains(out, "\x1b]9;ohwatch: confirm") ||
			!strings.Contains(out, "\x1b]777;notify;ohwatch: confirm") || !strings.Contains(out, "waiting for your confirmation\x07") {
			t.Fatalf("bell and notifications: %q", out)
		}
		if strings.Count(out, "\x1b") != 2 || strings.Count(out, "\x07") != 3 || strings.Count(out, ";") != 4 || strings.Contains(out, "pwned") {
			t.Fatalf("the title drove the notification: %q", out)
		}
		if b := bannerText(m); !strings.Contains(b, "waiting for your confirmation") || !strings.Contains(b, "nothing pending now · esc dismiss") {
			t.Fatalf("banner %q", b)
		}
		head := strings.Split(screen(m), "\n")[1]
		if !strings.Contains(head, "status idle · live waiting_for_confirmation") && !strings.Contains(head, "· live waiting_for_confirmation") {
			t.Fatalf("the pinned header does not show the live status: %q", head)
		}
		// The same status again: no second bell.
		m, cmd = send(m, BatchMsg{Batch: model.Batch{}})
		if out := rawOutput(cmd); out != "" {
			t.Fatalf("a second notification for the same status: %q", out)
		}
		// It stops waiting: the banner goes by itself.
		m, _ = send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000003", "running"))
		if b := bannerText(m); b != "" {
			t.Fatalf("the waiting banner stays after the run resumed: %q", b)
		}
	})
}

func TestAttentionStaysUntilDismissed(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		for _, status := range []string{"finished", "error", "stuck"} {
			m := attentionModel(t, true)
			m, cmd := send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000004", status))
			if out := rawOutput(cmd); !strings.HasPrefix(out, "\a\x1b]9;") {
				t.Errorf("%s: no bell and notification: %q", status, out)
			}
			banner := bannerText(m)
			if !strings.Contains(banner, "esc dismiss") {
				t.Errorf("%s: no banner: %q", status, banner)
			}
			m, _ = press(t, m, "j", "k")
			if got := bannerText(m); got != banner {
				t.Errorf("%s: moving changed the banner to %q", status, got)
			}
			m, _ = press(t, m, "esc")
			if got := bannerText(m); got != "" {
				t.Errorf("%s: esc does not dismiss the banner: %q", status, got)
			}
		}
	})
}

// TestEscGoesBackWithABanner: opened from another screen (the fleet), esc
// goes back at once, banner or not, and the banner says so; going back is
// what dismisses it.
func TestEscGoesBackWithABanner(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		m := attentionModel(t, false)
		m.SetAtRoot(false)
		m, _ = send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000004", "finished"))
		if !strings.Contains(bannerText(m), "esc back") {
			t.Fatalf("the banner of a pushed view: %q", bannerText(m))
		}
		cmd := m.Update(tuitest.KeyMsg("esc"))
		if cmd == nil {
			t.Fatal("esc did nothing")
		}
		if msg, ok := cmd().(tui.PopMsg); !ok || msg.QuitAtRoot {
			t.Fatalf("esc with a banner, opened from the fleet: %T, want going back", msg)
		}
		if b := bannerText(m); b != "" {
			t.Fatalf("going back left the banner up: %q", b)
		}
	})
}

func TestAttentionQuiet(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		// --no-notify (or not a terminal): the banner, no bell, no OSC.
		m := attentionModel(t, false)
		m, cmd := send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000005", "error"))
		if out := rawOutput(cmd); out != "" {
			t.Fatalf("written with Notify off: %q", out)
		}
		if b := bannerText(m); !strings.Contains(b, "error") {
			t.Fatalf("no banner with Notify off: %q", b)
		}
		// History read before the socket went live rings nothing.
		feed := make(chan model.Batch)
		close(feed)
		h := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: feed, Notify: true}, 80, 24)
		hist := tuitest.Recorded(t, fixtures.Echo)
		var evs []model.Event
		for i := 0; i < hist.Len(); i++ {
			evs = append(evs, hist.Event(i))
		}
		h, cmd = send(h, BatchMsg{Batch: model.Batch{Events: evs}})
		if b := bannerText(h); !strings.Contains(b, "finished") {
			t.Fatalf("no banner for a finished history: %q", b)
		}
		if out := rawOutput(cmd); out != "" {
			t.Fatalf("the history rang: %q", out)
		}
		// A replay never notifies.
		r := newModel(Options{Log: reducer.NewLog(nil, 0), Feed: feed, Notify: true}, 80, 24)
		_, cmd = send(r, statusBatch(t, "c1000000-0000-4000-8000-000000000006", "error"))
		if out := rawOutput(cmd); out != "" {
			t.Fatalf("a replay rang: %q", out)
		}
	})
}

// FuzzNotifyText: nothing that reaches a notification can end or bend the
// OSC sequence.
func FuzzNotifyText(f *testing.F) {
	for _, s := range []string{"plain", "a;b", "\x1b]0;x\x07", "\u202eevil", "\xff\xfe", "e\u0301", strings.Repeat("é", 100), "\u009c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := NotifyText(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8: %q", out)
		}
		for _, r := range out {
			if r == ';' || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (!unicode.IsPrint(r) && r != ' ') {
				t.Fatalf("%q in %q", r, out)
			}
		}
		if utf8.RuneCountInString(out) > notifyLimit+1 {
			t.Fatalf("too long: %d runes", utf8.RuneCountInString(out))
		}
	})
}

// TestBannerKeepsTheCursorInView: a banner taking lines from the list must
// not push the followed newest event off the screen.
func TestBannerKeepsTheCursorInView(t *testing.T) {
	t.Parallel()
	feed := make(chan model.Batch)
	close(feed)
	evs := tuitest.GeneratedEvents(t, 200, 3)
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: feed}, 80, 24)
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[:150], Conn: &model.ConnState{Phase: model.PhaseLive}}})
	m, _ = send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000007", "running"))
	m, _ = send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000008", "error"))
	if bannerText(m) == "" {
		t.Fatal("no banner")
	}
	// The followed newest event is the cursor's: its row is drawn.
	newest := tui.Ordinal(m.Log.Len() - 1)
	mustCursorOn(t, screen(m), newest)
	if !strings.Contains(selectedRow(screen(m)), " "+newest+" ") {
		t.Fatalf("the cursor row %q is off the screen:\n%s", newest, screen(m))
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 1, RetryIn: time.Second}}})
	if !strings.Contains(selectedRow(screen(m)), " "+newest+" ") {
		t.Fatalf("with two banners the cursor row %q is off the screen:\n%s", newest, screen(m))
	}
}

// TestBannerAfterAnAnswer: once the pending actions are answered (the
// status still says waiting until the server's next update), the banner
// no longer offers accept and reject.
func TestBannerAfterAnAnswer(t *testing.T) {
	t.Parallel()
	m := liveModel(t, tuitest.WaitingLog(t), 80, 24, Options{Title: "c", Controls: &tuitest.Controls{}})
	m, _ = send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000009", "waiting_for_confirmation"))
	if got := bannerText(m); !strings.Contains(got, "a accept") {
		t.Fatalf("waiting with pending actions: %q", got)
	}
	m = attentionModel(t, false)
	if n := len(m.Log.Latest().Pending); n != 0 {
		t.Fatalf("%d pending", n)
	}
	m, _ = send(m, statusBatch(t, "c1000000-0000-4000-8000-000000000009", "waiting_for_confirmation"))
	if got := bannerText(m); strings.Contains(got, "a accept") || !strings.Contains(got, "nothing pending now") {
		t.Fatalf("nothing pending, the banner says %q", got)
	}
}
