package tui

import (
	"time"

	"ohwatch/format"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
)

// timelinePane lists every execution-status transition up to the cursor,
// with its time and how long the status lasted (the last one: until the
// cursor's event).
type timelinePane struct {
	transitions []reducer.Transition
	confirmed   bool
	now         time.Time // the cursor event's time
	start       time.Time
	absTime     bool
	styles      theme.Styles
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
		when := format.Offset(tr.Time, p.start)
		if p.absTime {
			when = format.Clock(tr.Time)
		}
		dur := ""
		if !tr.Time.IsZero() && !end.IsZero() && !end.Before(tr.Time) {
			dur = " " + p.styles.Muted.Render(format.Duration(end.Sub(tr.Time)))
		}
		status := statusLabel(tr.To, k+1 < len(p.transitions) || p.confirmed || tr.Source == reducer.SourceFullState)
		out = append(out, p.styles.Muted.Render(when)+" "+
			p.styles.Status(tr.To).Render(status)+dur+" "+
			p.styles.Muted.Render(ordinal(tr.Index)))
	}
	return out
}

// statusLabel prints a status, with "?" when it is a provisional finish
// (a per-field update a Stop hook can still revert).
func statusLabel(status string, confirmed bool) string {
	if status == "" {
		status = "unknown"
	}
	s := model.SanitizeLine(status)
	if status == model.StatusFinished && !confirmed {
		s += "?"
	}
	return s
}
