package conversation

import (
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// attention is the newest live status that needs the user
// (waiting_for_confirmation, error, stuck, finished), shown in a banner
// until it is seen (esc dismisses it) or the status moves on.
type attention struct {
	status string // "" when there is nothing to show
	index  int    // the event the status became true at
}

// needsYou reports whether a status calls for the user.
func needsYou(status string) bool {
	switch status {
	case model.StatusWaitingForConfirmation, model.StatusError, model.StatusStuck, model.StatusFinished:
		return true
	}
	return false
}

// noticeStatus follows the live status after a batch: a change to a status
// that needs the user raises the banner and, once the socket has been live
// (not while the history loads), rings the bell and sends a desktop
// notification. It works on the latest state, wherever the cursor is.
func (m *Conversation) noticeStatus(liveBefore bool) tea.Cmd {
	if !m.Opts.Live {
		return nil
	}
	st := m.Log.Latest()
	if st.Status == m.liveStatus {
		return nil
	}
	m.liveStatus = st.Status
	// A banner says what is true now: once the status moves on (approved,
	// a Stop hook reverted a finish, a new message restarted the run), the
	// old one goes.
	m.attn = attention{}
	if !needsYou(st.Status) {
		return nil
	}
	at := m.Log.Len() - 1
	if last := st.LastTransitions(1); len(last) == 1 && last[0].To == st.Status {
		at = last[0].Index
	}
	m.attn = attention{status: st.Status, index: at}
	if !liveBefore || !m.Opts.Notify {
		return nil
	}
	return tea.Raw(notification(m.Opts.Title, st, m.Opts.Tmux))
}

// attentionText is the banner line for the raised status; "" when none.
func (m *Conversation) attentionText() string {
	// Opened from another screen, esc goes back there (and the banner
	// with it); at the bottom screen it dismisses the banner.
	dismiss := " · esc dismiss"
	if !m.AtRoot() {
		dismiss = " · esc back"
	}
	switch m.attn.status {
	case model.StatusWaitingForConfirmation:
		if q := m.Log.Latest().Question; q != nil {
			return questionBanner(q, m.answerer() != nil && !m.feedDone, dismiss)
		}
		n := len(m.Log.Latest().Pending)
		what := "waiting for your confirmation"
		if n == 0 {
			// The status says waiting, but no action is pending (an answer
			// went out and the server's next update has not come): offering
			// accept and reject would contradict the Pending pane.
			return what + " · nothing pending now" + dismiss
		}
		what += " of " + format.Plural(n, "action")
		if m.Opts.Controls != nil {
			return what + " · a accept · x reject" + dismiss
		}
		return what + dismiss
	case model.StatusError:
		return "the run ended in an error at " + tui.Ordinal(m.attn.index) + " · ] next error" + dismiss
	case model.StatusStuck:
		return "the agent is stuck (a repeating pattern) at " + tui.Ordinal(m.attn.index) + dismiss
	case model.StatusFinished:
		return "the agent finished at " + tui.Ordinal(m.attn.index) + dismiss
	}
	return ""
}

// notification is what the terminal gets when a status needs the user:
// the bell, then a desktop notification as OSC 9 (iTerm2, WezTerm, kitty,
// Windows Terminal) and OSC 777 (rxvt, foot, Ghostty, VTE). It holds only
// fixed words and the title passed through notifyText, never event text.
func notification(title string, st reducer.State, tmux bool) string {
	body := NotifyText(StatusSentence(st.Status))
	if st.Status == model.StatusWaitingForConfirmation && st.Question != nil {
		// Fixed words: the question's text is the agent's, never sent to
		// the terminal's notifier.
		body = "the agent asks you a question"
	}
	head := "ohwatch"
	if t := NotifyText(title); t != "" {
		head += ": " + t
	}
	return tui.NotifySequence(head, body, tmux)
}

// StatusSentence says a status that needs the user in words.
func StatusSentence(status string) string {
	switch status {
	case model.StatusWaitingForConfirmation:
		return "waiting for your confirmation"
	case model.StatusError:
		return "the run ended in an error"
	case model.StatusStuck:
		return "the agent is stuck"
	case model.StatusFinished:
		return "the agent finished"
	}
	return "status " + status
}

// notifyLimit caps a notification field, in runes.
const notifyLimit = 60

// NotifyText makes a string safe inside an OSC field: printable runes
// only (no C0, DEL, C1, no other control or format character that could
// end or bend the sequence), no ';' (the OSC 777 field separator), one
// line, at most notifyLimit runes.
func NotifyText(s string) string {
	s = sanitize.Line(s)
	var b strings.Builder
	n := 0
	for _, r := range s {
		if r == utf8.RuneError || r == ';' || !unicode.IsPrint(r) {
			r = ' '
		}
		if n == notifyLimit {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}
