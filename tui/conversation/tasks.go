package conversation

import (
	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
)

// tasksPane shows the task checklist as of the cursor, which event last
// changed it, and a proposed plan that has no result yet.
type tasksPane struct {
	tasks  reducer.Tasks
	styles *theme.Styles
}

// lines renders the checklist; notes go indented under their task.
func (p tasksPane) lines() []string {
	t := p.tasks
	var out []string
	if t.ChangedAt < 0 && t.TentativeAt < 0 {
		return []string{p.styles.Muted.Render("no task list")}
	}
	if t.ChangedAt >= 0 {
		done := 0
		for _, it := range t.Items {
			if it.Status == "done" {
				done++
			}
		}
		out = append(out, p.styles.Muted.Render(Itoa(done)+"/"+Itoa(len(t.Items))+" done · changed at "+tui.Ordinal(t.ChangedAt)))
		out = append(out, p.items(t.Items)...)
	}
	if t.TentativeAt >= 0 {
		out = append(out, p.styles.Warn.Render("proposed plan (tentative, "+tui.Ordinal(t.TentativeAt)+")"))
		out = append(out, p.items(t.Tentative)...)
	}
	return out
}

// items renders checklist items with their status glyph.
func (p tasksPane) items(items []reducer.TaskItem) []string {
	g := p.styles.Glyphs
	out := make([]string, 0, len(items))
	for _, it := range items {
		glyph, st := g.TaskTodo, p.styles.Text
		switch it.Status {
		case "in_progress":
			glyph, st = g.TaskDoing, p.styles.Info
		case "done":
			glyph, st = g.TaskDone, p.styles.Muted
		}
		out = append(out, st.Render(glyph+" "+sanitize.Line(it.Title)))
		if it.Notes != "" {
			out = append(out, "  "+p.styles.Muted.Render(sanitize.Line(it.Notes)))
		}
	}
	return out
}
