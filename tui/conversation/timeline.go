package conversation

import (
	"time"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
)

// timelinePane lists every execution-status transition up to the cursor,
// with its time and how long the status lasted (the last one: until the
// cursor's event).
type timelinePane struct {
	transitions []reducer.Transition
	confirmed   bool      // the latest status is final (reducer.Verdict)
	now         time.Time // the cursor event's time
	start       time.Time
	absTime     bool
	styles      *theme.Styles
}

// lines renders one line per transition, newest last.
func (p timelinePane) lines() []string {
	if len(p.transitions) == 0 {
		return []string{p.styles.Muted.Render("no status change yet")}
	}
	out := make([]string, 0, len(p.transitions))
	for k, tr := range p.transitions {
		end := p.now
		if k+1 < len(p.transitions) {
			end = p.transitions[k+1].Time
		}
		when := tui.OffsetText(tr.Time, p.start, true)
		if p.absTime {
			when = format.Clock(tr.Time)
		}
		dur := ""
		if !tr.Time.IsZero() && !end.IsZero() && !end.Before(tr.Time) {
			dur = " " + p.styles.Muted.Render(format.Duration(end.Sub(tr.Time)))
		}
		confirmed := k+1 < len(p.transitions) || p.confirmed || tr.Source == reducer.SourceFullState
		status := statusText(*p.styles, tr.To, confirmed, format.Status(tr.To, confirmed))
		out = append(out, p.styles.Muted.Render(when)+" "+
			status+dur+" "+
			p.styles.Muted.Render(tui.Ordinal(tr.Index)))
	}
	return out
}

// statusText prints a status label in the status's colour. A final finish
// (confirmed, or the end of a recording) carries a check mark and is
// green; a provisional one (a per-field update a Stop hook can still
// revert: "finished?") is yellow, so the two differ in glyph and colour
// and stay apart without colour too.
func statusText(s theme.Styles, status string, final bool, label string) string {
	label = sanitize.Line(label)
	if status == model.StatusFinished && final {
		label = s.Glyphs.Confirmed + " " + label
	}
	return s.StatusOf(status, final).Render(label)
}
