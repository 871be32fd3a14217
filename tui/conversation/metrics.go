package conversation

import (
	"strconv"
	"strings"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
	"ohwatch/theme"
)

// metricsPane shows cost, tokens, cache hits, context use and LLM calls as
// of the cursor, combined and per usage id.
type metricsPane struct {
	metrics reducer.Metrics
	// reported is false when the conversation never reported its usage:
	// every figure is then unknown, whatever the zeros in metrics say.
	reported bool
	styles   *theme.Styles
}

// lines renders the combined usage, then one block per usage id when there
// is more than one. Each figure is glued to its label or unit, so a
// narrow pane breaks a line between figures, never inside one.
func (p metricsPane) lines() []string {
	c := p.metrics.Combined
	m := p.styles.Muted
	if !p.reported {
		unknown := p.styles.Warn.Render(format.Unknown)
		return []string{
			m.Render("cost      ") + unknown,
			m.Render("tokens    ") + unknown,
			m.Render("cache     ") + unknown,
			m.Render("context   ") + unknown,
			m.Render("LLM calls ") + unknown,
			m.Render("no metrics reported"),
		}
	}
	out := []string{
		m.Render("cost      ") + p.cost(c),
		m.Render("tokens    ") + glue("in", format.Count(c.Prompt)) + "  " + glue("out", format.Count(c.Completion)) +
			"  " + glue("reason", format.Count(c.Reasoning)),
		m.Render("cache     ") + glue("read", format.Count(c.CacheRead)) + "  " + glue("write", format.Count(c.CacheWrite)) +
			"  " + glue("hit", format.CacheHit(c.Prompt, c.CacheRead)),
		m.Render("context   ") + strings.ReplaceAll(contextLabel(c), " ", nbsp),
		m.Render("LLM calls ") + strconv.Itoa(c.LLMCalls),
	}
	if len(p.metrics.ByUsage) > 1 {
		for _, u := range p.metrics.ByUsage {
			name := sanitize.Line(u.UsageID)
			if u.Model != "" {
				name += " (" + shortModel(u.Model) + ")"
			}
			out = append(out, p.styles.Accent.Render(name)+" "+p.cost(u)+
				m.Render(" · ")+glue(format.Count(u.Prompt+u.Completion), "tok")+
				m.Render(" · ")+glue(strconv.Itoa(u.LLMCalls), "calls"))
		}
	} else if len(p.metrics.ByUsage) == 1 && p.metrics.ByUsage[0].Model != "" {
		u := p.metrics.ByUsage[0]
		out = append(out, m.Render("model     ")+shortModel(u.Model)+m.Render(" ("+sanitize.Line(u.UsageID)+")"))
	}
	return out
}

// shortModel is a model's name without its routing prefix
// ("litellm_proxy/anthropic/claude-sonnet-4-5-20250929" reads
// "claude-sonnet-4-5-20250929"): in a side pane the prefix pushed the name
// itself onto a second row, cut at a hyphen. The raw JSON keeps it whole.
func shortModel(name string) string {
	name = sanitize.Line(name)
	if i := strings.LastIndex(name, "/"); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// cost prints a usage's cost, "unknown" when no price is known.
func (p metricsPane) cost(u reducer.Usage) string {
	if !u.CostKnown {
		return p.styles.Warn.Render("unknown")
	}
	return format.Cost(u.CostUSD, true)
}

// contextLabel prints the context in use against the window: "40.1k / 200k (20%)".
func contextLabel(u reducer.Usage) string {
	if u.ContextUsed == 0 && u.ContextWindow == 0 {
		return "-"
	}
	if u.ContextWindow <= 0 {
		return format.Count(u.ContextUsed)
	}
	return format.Count(u.ContextUsed) + " / " + format.Count(u.ContextWindow) +
		" (" + format.Percent(u.ContextUsed, u.ContextWindow) + ")"
}
