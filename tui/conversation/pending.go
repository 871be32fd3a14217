package conversation

import (
	"strconv"

	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
)

// pendingPane lists the actions that have no result yet as of the cursor,
// with their security risk; while waiting for confirmation these are the
// actions accept and reject answer.
type pendingPane struct {
	pending []reducer.PendingAction
	waiting bool
	// question is the open ask_user question, nil for none: its ask_user
	// action waits for an answer, not a confirmation.
	question *reducer.Question
	styles   *theme.Styles
}

// lines renders one line per pending action.
func (p pendingPane) lines() []string {
	if len(p.pending) == 0 {
		return []string{p.styles.Muted.Render("nothing pending")}
	}
	var out []string
	switch {
	case p.waiting && p.question != nil:
		out = append(out, questionLines(p.question, p.styles)...)
	case p.waiting:
		out = append(out, p.styles.Warn.Render("waiting for confirmation"))
	}
	for _, a := range p.pending {
		risk := a.SecurityRisk
		if risk == "" {
			risk = "UNKNOWN"
		}
		verdict := p.styles.Risk(risk).Render(sanitize.Line(risk))
		if a.AnalyzerRisk != "" {
			// The analyzer's verdict is the one the policy read.
			verdict += p.styles.Muted.Render(" · analyzer ") + p.styles.Risk(a.AnalyzerRisk).Render(sanitize.Line(a.AnalyzerRisk))
		}
		out = append(out, verdict+" "+
			p.styles.Muted.Render(tui.Ordinal(a.Index)+" "+sanitize.Line(a.ToolName)+":")+" "+
			sanitize.Line(a.Summary))
	}
	return out
}

// Itoa is strconv.Itoa, short for the many counts the panes print.
func Itoa(n int) string { return strconv.Itoa(n) }

// questionLines shows an open question: each question and its options.
func questionLines(q *reducer.Question, s *theme.Styles) []string {
	out := []string{s.Warn.Render("the agent asks you")}
	for _, qu := range q.Request.Questions {
		out = append(out, s.Prompt.Render("? ")+qu.Text)
		if len(qu.Options) == 0 {
			out = append(out, s.Muted.Render("    (free text)"))
		}
		for k, o := range qu.Options {
			out = append(out, s.Muted.Render("    "+Itoa(k+1)+" ")+o.Label)
		}
	}
	return out
}
