package conversation

import (
	"math"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/tui"
)

// A connection problem is never hidden: while a live source's socket is
// not live, the header says "reconnecting (n) in Ns" or "lost" where it
// would say LIVE, and a banner names the cause in words a user can act on.

// socketLive reports whether a live source's socket is live now; a replay
// has no socket and counts as live.
func (m *Conversation) socketLive() bool {
	if !m.Opts.Live {
		return true
	}
	return m.conn != nil && m.conn.Phase == model.PhaseLive
}

// connWord is the short connection state for the header of a live source:
// "connecting", "reconnecting (n) in Ns", "lost", "connected", "done".
func (m *Conversation) connWord() string {
	c := m.conn
	if c == nil {
		if m.feedDone {
			return "lost"
		}
		return "connecting"
	}
	switch c.Phase {
	case model.PhaseConnecting:
		return "connecting"
	case model.PhaseLive:
		return "connected"
	case model.PhaseReconnecting:
		if m.retryLeft <= 0 {
			return "reconnecting (" + strconv.Itoa(c.Attempt) + ") now"
		}
		return "reconnecting (" + strconv.Itoa(c.Attempt) + ") in " + wholeSeconds(m.retryLeft)
	case model.PhaseLost:
		return "lost"
	case model.PhaseDone:
		return "done"
	}
	return c.Phase.String()
}

// wholeSeconds prints a retry wait rounded up to whole seconds ("1s" for
// 635ms): the header counts in seconds.
func wholeSeconds(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds())))) + "s"
}

// retryTickMsg counts a reconnect's wait down by a second; gen drops the
// ticks of an older wait.
type retryTickMsg struct {
	tui.Addr
	gen int
}

// startRetryCountdown begins counting down a new reconnect wait, so the
// header's "in Ns" is true while it shows.
func (m *Conversation) startRetryCountdown(c model.ConnState) tea.Cmd {
	m.retryGen++
	if c.Phase != model.PhaseReconnecting {
		m.retryLeft = 0
		return nil
	}
	m.retryLeft = c.RetryIn
	return m.retryTick()
}

// retryTick waits for the next whole second of the countdown.
func (m *Conversation) retryTick() tea.Cmd {
	if m.retryLeft <= 0 {
		return nil
	}
	step := m.retryLeft % time.Second
	if step == 0 {
		step = time.Second
	}
	gen, to := m.retryGen, m.Addr()
	return tea.Tick(step, func(time.Time) tea.Msg { return retryTickMsg{Addr: to, gen: gen} })
}

// retryTicked advances the countdown.
func (m *Conversation) retryTicked(msg retryTickMsg) tea.Cmd {
	if msg.gen != m.retryGen || m.retryLeft <= 0 {
		return nil
	}
	step := m.retryLeft % time.Second
	if step == 0 {
		step = time.Second
	}
	m.retryLeft -= step
	return m.retryTick()
}

// connProblem is the banner text for a live source whose socket is not
// live: the cause, then what the source does about it ("reconnecting (2)
// in 4s", "gave up"); "" when there is nothing to say.
func (m *Conversation) connProblem() string {
	c := m.conn
	if !m.Opts.Live || c == nil || (c.Phase != model.PhaseReconnecting && c.Phase != model.PhaseLost) {
		return ""
	}
	if c.Phase == model.PhaseLost {
		return m.connCause() + " · gave up" + m.retryWords(true)
	}
	// The header says "reconnecting (3) in 4s": the banner says why.
	return m.connCause() + m.retryWords(false)
}

// connCause names why the socket is not live in words a user can act on.
func (m *Conversation) connCause() string {
	c := m.conn
	if c == nil {
		return "never connected to " + m.serverName()
	}
	reason := sanitize.Line(c.Reason)
	lower := strings.ToLower(reason)
	switch {
	case c.Code == "auth" || strings.Contains(lower, "authentication rejected"):
		return "the server rejected the session key: set SESSION_API_KEY or --session-key-file"
	case c.Code == "not_found" || strings.Contains(lower, "not found"):
		id := sanitize.Line(m.Opts.Conversation)
		if id == "" {
			id = "with this ID"
		}
		return "no conversation " + id + " on this server"
	case strings.Contains(lower, "refused"):
		return "nothing listens at " + m.serverName()
	case c.Code == "connect" || strings.Contains(lower, "could not connect"):
		return "cannot reach " + m.serverName() + ": " + reason
	case reason != "":
		return "connection lost: " + reason
	}
	return "connection lost"
}

// serverName is the server's address for a sentence.
func (m *Conversation) serverName() string {
	if s := sanitize.Line(m.Opts.Server); s != "" {
		return s
	}
	return "the server's address"
}

// Unreachable says why a live session ends with the exit code of an
// unreachable source (4): it never connected, or the server rejected the
// session key; "" otherwise.
func (m *Conversation) Unreachable() string {
	if !m.Opts.Live {
		return ""
	}
	if m.wasLive && (m.conn == nil || m.conn.Code != "auth") {
		return ""
	}
	if m.conn == nil || m.conn.Phase == model.PhaseConnecting {
		return "never connected to " + m.serverName()
	}
	return m.connCause()
}
