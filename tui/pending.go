package tui

import (
	"strconv"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
)

// pendingPane lists the actions that have no result yet as of the cursor,
// with their security risk; while waiting for confirmation these are the
// actions accept and reject answer.
type pendingPane struct {
	pending []reducer.PendingAction
	waiting bool
	styles  *theme.Styles
}

// lines renders one line per pending action.
func (p pendingPane) lines() []string {
	if len(p.pending) == 0 {
		return []string{p.styles.Muted.Render("nothing pending")}
	}
	var out []string
	if p.waiting {
		out = append(out, p.styles.Warn.Render("waiting for confirmation"))
	}
	for _, a := range p.pending {
		risk := a.SecurityRisk
		if risk == "" {
			risk = "UNKNOWN"
		}
		out = append(out, p.styles.Risk(risk).Render(model.SanitizeLine(risk))+" "+
			p.styles.Muted.Render(ordinal(a.Index)+" "+model.SanitizeLine(a.ToolName)+":")+" "+
			model.SanitizeLine(a.Summary))
	}
	return out
}

// itoa is strconv.Itoa, short for the many counts the panes print.
func itoa(n int) string { return strconv.Itoa(n) }
