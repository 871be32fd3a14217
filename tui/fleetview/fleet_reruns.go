package fleetview

import (
	"time"

	"ohwatch/fleet"
	"ohwatch/internal/sanitize"
)

// A run started again (`serve --loop`, the same task retried) has the
// title of the run before it: rows that share a title say what tells them
// apart, when the run started and, where the column has room, the start of
// its id. The tail is kept whole and the title cut before it.

// rerunIDFrom is the title column's width from which a shared title also
// shows the short id.
const rerunIDFrom = 48

// shortIDLen is how much of an id tells conversations apart on a row.
const shortIDLen = 8

// fitTitle fits a row's title (with its prefixes) in w cells, with the
// start time and short id of a conversation whose title another shares.
func (f *Fleet) fitTitle(title string, r fleet.Row, w int) string {
	tail := f.rerunTail(r, w)
	if tail == "" {
		return f.Cells.Truncate(title, w, "…")
	}
	room := w - f.Cells.Width(tail)
	if room < 8 {
		return f.Cells.Truncate(title, w, "…")
	}
	return f.Cells.Truncate(title, room, "…") + tail
}

// rerunTail is " · 14:03:07 · 3f2a1b2c" for a row whose title another row
// of the fleet has, "" for one whose title is its own.
func (f *Fleet) rerunTail(r fleet.Row, w int) string {
	if r.Title == "" || f.fleet.SameTitle(r.Title) < 2 {
		return ""
	}
	sep := f.styles.Glyphs.Separator
	tail := ""
	if !r.Started.IsZero() {
		tail += sep + startedText(r.Started, f.now)
	}
	if w >= rerunIDFrom || tail == "" {
		id := sanitize.Line(r.Ref.ID)
		if runes := []rune(id); len(runes) > shortIDLen {
			id = string(runes[:shortIDLen])
		}
		tail += sep + id
	}
	return tail
}

// startedText is a start time as the LAST column words a time: the time
// of day when it is today (UTC), else the date too.
func startedText(t, now time.Time) string {
	t = t.UTC()
	if now.UTC().Format(time.DateOnly) == t.Format(time.DateOnly) {
		return t.Format(time.TimeOnly)
	}
	return t.Format("01-02 15:04")
}
