package conversation

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/format"
	"ohwatch/model"
)

// A live watch that gave up (a first connection to a server not up yet,
// a conversation not found) is not the end of the view: r starts it again
// over the same feed (Options.Retry), and watch --wait gives a first
// connection longer, which the banner says.

// retryKey is r while the watch has given up (outside the inspector, where
// r is raw JSON).
var retryKey = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "try again"))

// gaveUp reports whether the live watch ended for good and r may start it
// again.
func (m *Conversation) gaveUp() bool {
	return m.Opts.Live && m.Opts.Retry != nil && m.conn != nil && m.conn.Phase == model.PhaseLost && !m.feedDone
}

// retryKeyPressed answers r after the watch gave up; ok is false for any
// other key or state.
func (m *Conversation) retryKeyPressed(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, retryKey) || m.inspecting() || !m.gaveUp() {
		return nil, false
	}
	if !m.Opts.Retry() {
		return m.setFlash("r: a new attempt is already under way"), true
	}
	m.conn = &model.ConnState{Phase: model.PhaseConnecting}
	m.fixTop()
	return m.setFlash("trying again: connecting to " + m.serverName() + "…"), true
}

// retryWords is what the connection banner adds about trying again: r
// after giving up, how long a first connection waits, or how to wait
// longer for a server that is coming.
func (m *Conversation) retryWords(lost bool) string {
	c := m.conn
	switch {
	case lost && m.Opts.Retry != nil && !m.wasLive && m.Opts.FirstWait == 0:
		return " · r tries again · watch --wait 5m waits for a server that is coming"
	case lost && m.Opts.Retry != nil:
		return " · r tries again"
	case !lost && !m.wasLive && m.Opts.FirstWait > 0 && c != nil && c.Phase == model.PhaseReconnecting:
		return " · waiting up to " + format.Duration(m.Opts.FirstWait.Round(time.Second)) + " for the server (--wait)"
	}
	return ""
}
