package conversation

import (
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// windowTitleMax bounds the conversation's part of the terminal's title:
// a tab or a task bar shows a few words.
const windowTitleMax = 60

// WindowTitle is the terminal window's title for the conversation, as its
// header says it: the status (✓ for a final finish, ✗ for an error, else
// its word), then the title. The title is sanitised, so nothing from an
// event reaches the terminal's title sequence as a control.
func (m *Conversation) WindowTitle() string {
	title := sanitize.Line(m.Opts.Title)
	if title == "" {
		title = "conversation"
	}
	title = m.Cells.Truncate(title, windowTitleMax, "…")
	l := m.Log.Latest()
	g := m.styles.Glyphs
	switch {
	case l.Status == model.StatusFinished && l.Verdict(m.recordingEnded()).Final():
		return g.Confirmed + " " + title
	case l.Status == model.StatusError:
		return g.Error + " " + title
	case l.Status == "":
		return title
	}
	return sanitize.Line(l.Status) + ": " + title
}

// crumbMax bounds a conversation's name in the breadcrumb of the views
// pushed over it.
const crumbMax = 24

// Crumb names the conversation in the breadcrumb of the views pushed over
// it ("fleet › Fix the cache › the fork …").
func (m *Conversation) Crumb() string {
	title := sanitize.Line(m.Opts.Title)
	if title == "" {
		title = "conversation"
	}
	return m.Cells.Truncate(title, crumbMax, "…")
}

// setTrail keeps the breadcrumb of the screens this view was pushed over;
// the header shows it where it says "ohwatch".
func (m *Conversation) SetTrail(trail []string) { m.trail = trail }
