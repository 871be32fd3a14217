package fleetview

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/fleet"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// resumeID is the question about a paused sandbox on the table's overlay.
const resumeID = "resume"

// resumeQuestion asks what enter on a conversation whose sandbox is
// paused should do: resume the sandbox and open it live (y), or open its
// stored events read-only (n, esc). Other keys leave it open; the answer
// goes to the table in a resumeAnsweredMsg. It is drawn in the footer,
// two lines.
type resumeQuestion struct {
	to     tui.Addr
	row    fleet.Row
	keys   tui.FleetKeyMap
	styles *theme.Styles
	cells  text.Cells
	// now is the table's clock, for the row's title (fitDialogs).
	now   time.Time
	width int
}

// resumeAnsweredMsg is the answer about a paused conversation: resume
// its sandbox, or open its stored events.
type resumeAnsweredMsg struct {
	tui.Addr
	ref    model.ConversationRef
	resume bool
}

// askResume opens the question about the paused conversation r.
func (f *Fleet) askResume(r fleet.Row) {
	f.overlay.Open(&resumeQuestion{to: f.Addr(), row: r, keys: f.keys, styles: &f.styles})
	f.fitDialogs()
}

// answered opens the conversation as the answer says.
func (f *Fleet) answered(msg resumeAnsweredMsg) tea.Cmd {
	if !msg.resume {
		return f.startOpen(msg.ref, f.opts.Open)
	}
	f.resuming = true
	return f.startOpen(msg.ref, f.opts.Resume)
}

// ID implements dialog.Dialog.
func (q *resumeQuestion) ID() string { return resumeID }

// Place implements dialog.Placed: the question is the footer.
func (q *resumeQuestion) Place() dialog.Place { return dialog.Footer }

// Update implements dialog.Dialog: y and n (or esc) answer; every other
// key is read and left; the rest is the table's.
func (q *resumeQuestion) Update(msg tea.Msg) dialog.Action {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return dialog.Pass()
	}
	resume := key.Matches(press, q.keys.Resume)
	if !resume && !key.Matches(press, q.keys.ReadOnly) {
		return dialog.Run(nil)
	}
	answer := resumeAnsweredMsg{Addr: q.to, ref: q.row.Ref, resume: resume}
	return dialog.Close(func() tea.Msg { return answer })
}

// SetSize implements dialog.Dialog; the question is always two lines.
func (q *resumeQuestion) SetSize(width, _ int) { q.width = width }

// ShortHelp implements dialog.Dialog.
func (q *resumeQuestion) ShortHelp() []key.Binding {
	return []key.Binding{q.keys.Resume, q.keys.ReadOnly}
}

// View implements dialog.Dialog: what is paused, what resuming does, and
// the two answers.
func (q *resumeQuestion) View() string {
	s, k, w := q.styles, q.keys, q.width
	title := fleet.ColTitle.Text(q.row, q.now)
	what := s.Warn.Render("“"+title+"”: its sandbox is paused") +
		s.Muted.Render(" (shown from Cloud's stored events). Resuming starts the sandbox again on Cloud, where it runs on your account until paused.")
	ask := s.Key.Render(k.Resume.Help().Key) + " " + s.KeyDesc.Render("resume the sandbox and open it live") +
		s.Muted.Render(" · ") + s.Key.Render(k.ReadOnly.Help().Key) + " " + s.KeyDesc.Render("open the stored events read-only")
	return strings.Join([]string{q.cells.Fit(what, w), q.cells.Fit(ask, w)}, "\n")
}
