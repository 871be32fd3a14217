package conversation

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// bannerText is the banner area of a rendered screen, its lines joined
// with single spaces (a banner may wrap): the lines between the two of
// the header and the events pane's title; "" when there are none, or no
// events pane is drawn.
func bannerText(m *Conversation) string {
	lines := strings.Split(screen(m), "\n")
	for k := 2; k < len(lines); k++ {
		if t := strings.TrimLeft(lines[k], "▌─ "); strings.HasPrefix(t, "Events") {
			return strings.Join(strings.Fields(strings.Join(lines[2:k], " ")), " ")
		}
	}
	return ""
}

const testServer = "http://127.0.0.1:8000"

// connModel is a live model of a server that sent conn (after having been
// live when wasLive).
func connModel(t *testing.T, w, h int, wasLive bool, conn model.ConnState) *Conversation {
	t.Helper()
	m := newModel(Options{Log: tuitest.Generated(t, 4, 1), Live: true, Feed: make(chan model.Batch),
		Server: testServer, Conversation: "5f1b4a7e0c2d4e6f8a9b0c1d2e3f4a5b"}, w, h)
	if wasLive {
		m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}})
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &conn}})
	return m
}

// TestConnectionBanner: every cause is named in words a user can act on,
// whole at 80 columns, and the header never says LIVE meanwhile.
func TestConnectionBanner(t *testing.T) {
	t.Parallel()
	refused := "GET /api/conversations/5f1b4a7e0c2d4e6f8a9b0c1d2e3f4a5b/events/search: could not connect: dial tcp 127.0.0.1:8000: connect: connection refused"
	tests := []struct {
		name    string
		conn    model.ConnState
		banner  string
		header  string
		wasLive bool
	}{
		{"401", model.ConnState{Phase: model.PhaseLost, Final: true, Code: "auth", Reason: "GET /api/conversations/x/events/search: 401 Unauthorized"},
			"the server rejected the session key: set SESSION_API_KEY or --session-key-file · gave up", "lost", false},
		{"close 4001", model.ConnState{Phase: model.PhaseLost, Final: true, Code: "auth", Reason: "authentication rejected (close 4001)"},
			"the server rejected the session key: set SESSION_API_KEY or --session-key-file", "lost", true},
		{"404", model.ConnState{Phase: model.PhaseLost, Final: true, Code: "not_found", Reason: "GET /api/conversations/x: 404 Not Found"},
			"no conversation 5f1b4a7e0c2d4e6f8a9b0c1d2e3f4a5b on this server · gave up", "lost", false},
		{"refused, given up", model.ConnState{Phase: model.PhaseLost, Final: true, Code: "connect", Reason: refused},
			"nothing listens at " + testServer + " · gave up", "lost", false},
		{"refused, retrying", model.ConnState{Phase: model.PhaseReconnecting, Attempt: 2, RetryIn: 1230 * time.Millisecond, Reason: refused},
			"nothing listens at " + testServer, "reconnecting (2) in 2s", true},
		{"dropped, retrying", model.ConnState{Phase: model.PhaseReconnecting, Attempt: 1, RetryIn: 500 * time.Millisecond, Reason: "connection dropped (no close frame)"},
			"connection lost: connection dropped (no close frame)", "reconnecting (1) in 1s", true},
	}
	for _, tt := range tests {
		for _, size := range tuitest.GoldenSizes {
			m := connModel(t, size[0], size[1], tt.wasLive, tt.conn)
			if got := bannerText(m); !strings.Contains(got, tt.banner) {
				t.Errorf("%s at %dx%d: banner %q lacks %q", tt.name, size[0], size[1], got, tt.banner)
			}
			s := screen(m)
			tuitest.AssertScreenShape(t, s, size[0], size[1])
			head := strings.Join(strings.Split(s, "\n")[:2], "\n")
			if strings.Contains(head, "LIVE") || !strings.Contains(head, tt.header) {
				t.Errorf("%s at %dx%d: header says LIVE or lacks %q:\n%s", tt.name, size[0], size[1], tt.header, head)
			}
			// The countdown is said once (the header), not in the status
			// line and the banner again.
			if n := strings.Count(s, tt.header); n != 1 {
				t.Errorf("%s at %dx%d: %q said %d times:\n%s", tt.name, size[0], size[1], tt.header, n, s)
			}
		}
	}
	// Live again: no banner, LIVE.
	m := connModel(t, 80, 24, true, model.ConnState{Phase: model.PhaseReconnecting, Attempt: 1, RetryIn: time.Second})
	m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}})
	if b := bannerText(m); strings.Contains(b, "connection lost") || !strings.Contains(screen(m), "LIVE") {
		t.Fatalf("back live: banner %q\n%s", b, screen(m))
	}
}

// TestHeaderNeverLiveWhileConnecting: before the socket is live the header
// says so instead of LIVE.
func TestHeaderNeverLiveWhileConnecting(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 20, 1), Live: true, Feed: make(chan model.Batch)}, 80, 24)
	if s := screen(m); strings.Contains(s, "LIVE") || !strings.Contains(s, "connecting") {
		t.Fatalf("before any connection state:\n%s", s)
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseConnecting}}})
	if s := screen(m); strings.Contains(s, "LIVE") {
		t.Fatalf("while connecting:\n%s", s)
	}
}

// TestUnreachableExit: the TUI ends like headless (exit 4) when it never
// connected or the key was rejected; not after a live session lost its
// connection, nor for a replay.
func TestUnreachableExit(t *testing.T) {
	t.Parallel()
	lost := model.ConnState{Phase: model.PhaseLost, Final: true, Code: "connect", Reason: "dial tcp: connect: connection refused"}
	auth := model.ConnState{Phase: model.PhaseLost, Final: true, Code: "auth", Reason: "authentication rejected (close 4001)"}
	tests := []struct {
		name    string
		m       *Conversation
		wantHas string
	}{
		{"refused from the start", connModel(t, 80, 24, false, lost), "nothing listens at " + testServer},
		{"still connecting", connModel(t, 80, 24, false, model.ConnState{Phase: model.PhaseConnecting}), "never connected to " + testServer},
		{"key rejected after being live", connModel(t, 80, 24, true, auth), "rejected the session key"},
		{"lost after being live", connModel(t, 80, 24, true, lost), ""},
		{"replay", newModel(Options{Log: tuitest.Generated(t, 20, 1)}, 80, 24), ""},
	}
	for _, tt := range tests {
		got := tt.m.Unreachable()
		if (tt.wantHas == "") != (got == "") || !strings.Contains(got, tt.wantHas) {
			t.Errorf("%s: Unreachable() = %q, want %q", tt.name, got, tt.wantHas)
		}
	}
}

// TestReconnectCountdown: "in Ns" counts down each second, so it stays
// true while it shows; a newer wait drops the older one's ticks.
//
// It hands the view its own ticks (retryTick, retryGen): a stale tick of
// an older wait is only told from a fresh one by its generation, which
// no screen shows.
func TestReconnectCountdown(t *testing.T) {
	t.Parallel()
	m := connModel(t, 80, 24, true, model.ConnState{Phase: model.PhaseReconnecting, Attempt: 2, RetryIn: 2500 * time.Millisecond})
	head := func(m *Conversation) string { return strings.Split(screen(m), "\n")[0] }
	if !strings.Contains(head(m), "reconnecting (2) in 3s") {
		t.Fatalf("at the start: %q", head(m))
	}
	old := m.retryGen
	for _, want := range []string{"in 2s", "in 1s", "now"} {
		cmd := m.retryTick()
		m, _ = send(m, retryTickMsg{gen: m.retryGen})
		if !strings.Contains(head(m), "reconnecting (2) "+want) {
			t.Fatalf("after a tick: %q, want %q", head(m), want)
		}
		if want != "now" && cmd == nil {
			t.Fatal("the countdown stopped early")
		}
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 3, RetryIn: 4 * time.Second}}})
	m, _ = send(m, retryTickMsg{gen: old})
	if !strings.Contains(head(m), "reconnecting (3) in 4s") {
		t.Fatalf("a stale tick moved the new countdown: %q", head(m))
	}
}

// TestReconnectTickTiming: the first tick comes when the wait reaches a
// whole second (500ms of 2.5s), the next a second later.
//
// It times the tick command itself and reads the wait left (retryLeft):
// when a timer fires is not on the screen.
func TestReconnectTickTiming(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		m := connModel(t, 80, 24, true, model.ConnState{Phase: model.PhaseReconnecting, Attempt: 1, RetryIn: 2500 * time.Millisecond})
		for _, want := range []time.Duration{500 * time.Millisecond, time.Second} {
			start := time.Now()
			msg := m.retryTick()()
			if got := time.Since(start); got != want {
				t.Fatalf("tick after %v, want %v", got, want)
			}
			m, _ = send(m, msg)
		}
		if m.retryLeft != time.Second {
			t.Fatalf("left %v", m.retryLeft)
		}
	})
}

// TestStatusUnknownBeforeAnyEvent: a live conversation that never
// delivered says its status is unknown, not "idle".
func TestStatusUnknownBeforeAnyEvent(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: make(chan model.Batch), Server: testServer}, 80, 24)
	m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 3, RetryIn: 4 * time.Second,
		Reason: "could not connect: connection refused"}}})
	s := screen(m)
	if line := strings.Split(s, "\n")[1]; strings.Contains(line, "idle") || !strings.Contains(line, "status unknown") {
		t.Fatalf("never connected: %q", line)
	}
	if n := strings.Count(s, "reconnecting (3) in 4s"); n != 1 {
		t.Fatalf("the countdown said %d times:\n%s", n, s)
	}
}
