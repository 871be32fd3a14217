package tui

import (
	"strconv"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
)

// metricsPane shows cost, tokens, cache hits, context use and LLM calls as
// of the cursor, combined and per usage id.
type metricsPane struct {
	metrics reducer.Metrics
	styles  theme.Styles
}

// lines renders the combined usage, then one block per usage id when there
// is more than one.
func (p metricsPane) lines() []string {
	c := p.metrics.Combined
	m := p.styles.Muted
	out := []string{
		m.Render("cost      ") + p.cost(c),
		m.Render("tokens    ") + "in " + model.FormatCount(c.Prompt) + "  out " + model.FormatCount(c.Completion) +
			"  reason " + model.FormatCount(c.Reasoning),
		m.Render("cache     ") + "read " + model.FormatCount(c.CacheRead) + "  write " + model.FormatCount(c.CacheWrite) +
			"  hit " + formatPercent(c.CacheRead, c.Prompt),
		m.Render("context   ") + contextLabel(c),
		m.Render("LLM calls ") + strconv.Itoa(c.LLMCalls),
	}
	if len(p.metrics.ByUsage) > 1 {
		for _, u := range p.metrics.ByUsage {
			name := model.SanitizeLine(u.UsageID)
			if u.Model != "" {
				name += " (" + model.SanitizeLine(u.Model) + ")"
			}
			out = append(out, p.styles.Accent.Render(name)+" "+p.cost(u)+
				m.Render(" · ")+model.FormatCount(u.Prompt+u.Completion)+" tok"+
				m.Render(" · ")+strconv.Itoa(u.LLMCalls)+" calls")
		}
	} else if len(p.metrics.ByUsage) == 1 && p.metrics.ByUsage[0].Model != "" {
		u := p.metrics.ByUsage[0]
		out = append(out, m.Render("model     ")+model.SanitizeLine(u.Model)+m.Render(" ("+model.SanitizeLine(u.UsageID)+")"))
	}
	return out
}

// cost prints a usage's cost, "unknown" when no price is known.
func (p metricsPane) cost(u reducer.Usage) string {
	if noUsage(u) {
		// No LLM usage was reported at all (a recording without stats):
		// neither a price nor $0 would be true.
		return p.styles.Muted.Render("-")
	}
	if !u.CostKnown {
		return p.styles.Warn.Render("unknown")
	}
	return formatCost(u.CostUSD, true)
}

// contextLabel prints the context in use against the window: "40.1k / 200k (20%)".
func contextLabel(u reducer.Usage) string {
	if u.ContextUsed == 0 && u.ContextWindow == 0 {
		return "-"
	}
	if u.ContextWindow <= 0 {
		return model.FormatCount(u.ContextUsed)
	}
	return model.FormatCount(u.ContextUsed) + " / " + model.FormatCount(u.ContextWindow) +
		" (" + formatPercent(u.ContextUsed, u.ContextWindow) + ")"
}

// noUsage reports whether a usage has no reported LLM activity.
func noUsage(u reducer.Usage) bool {
	return u.LLMCalls == 0 && u.Prompt == 0 && u.Completion == 0 && u.CostUSD == 0
}
