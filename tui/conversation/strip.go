package conversation

import (
	"sort"

	"ohwatch/format"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui/text"
)

// changesUpTo counts the marks at or before the cursor.
func changesUpTo(marks []int, cursor int) int {
	return sort.SearchInts(marks, cursor+1)
}

// summaryStrip is the compact layout's stand-in for the right column: the
// metrics, tasks and pending actions in one or two lines.
type summaryStrip struct {
	box
	cells text.Cells
	noKeys
	styles *theme.Styles
	st     reducer.State
	// transitions is the number of status changes up to the cursor.
	transitions int
}

// stripOf gives the strip what it draws.
func (m *Conversation) stripOf(st reducer.State) *summaryStrip {
	return &summaryStrip{styles: &m.styles, cells: m.Cells, st: st, transitions: changesUpTo(m.Log.Marks().StatusChanges, m.cursor)}
}

// View implements Pane: exactly width×height cells.
func (p *summaryStrip) View() string {
	width, height := p.width, p.height
	s := p.styles
	st := p.st
	c := st.Metrics.Combined
	sep := s.Muted.Render(s.Glyphs.Separator)
	line1 := s.Muted.Render("cost ") + format.Cost(c.CostUSD, c.CostKnown) + sep +
		s.Muted.Render("tok ") + format.Count(c.Prompt) + "/" + format.Count(c.Completion) + sep +
		s.Muted.Render("cache ") + format.CacheHit(c.Prompt, c.CacheRead) + sep +
		s.Muted.Render("ctx ") + contextLabel(c) + sep +
		s.Muted.Render("calls ") + Itoa(c.LLMCalls)
	if !st.MetricsReported() {
		line1 = s.Muted.Render("metrics ") + s.Warn.Render(format.Unknown) + s.Muted.Render(" (none reported)")
	}
	var tasks model.TaskTally
	for _, it := range st.Tasks.Items {
		tasks.Add(it.Status)
	}
	line2 := s.Muted.Render("tasks ")
	if st.Tasks.ChangedAt < 0 {
		line2 += "-"
	} else {
		line2 += Itoa(tasks.Done) + "/" + Itoa(tasks.Total()) + " done"
	}
	if st.Tasks.TentativeAt >= 0 {
		line2 += s.Warn.Render(" (plan proposed)")
	}
	line2 += sep + s.Muted.Render("pending ")
	if len(st.Pending) == 0 {
		line2 += "0"
	} else {
		a := st.Pending[0]
		line2 += Itoa(len(st.Pending)) + " " + s.Risk(a.SecurityRisk).Render(a.SecurityRisk)
	}
	if n := p.transitions; n > 0 {
		line2 += sep + s.Muted.Render("transitions ") + Itoa(n)
	}
	if height == 1 {
		return p.cells.Block(line1+sep+line2, width, 1)
	}
	return p.cells.Block(line1+"\n"+line2, width, height)
}
