package tui

import (
	"ohwatch/reducer"
)

// render composes the screen from the panes, each sized by layout. Its cost
// does not grow with the conversation: one At (cached), the visible rows
// (cached), and the scrubber's marks.
func (m Model) render() string {
	l := m.layout()
	st := m.state()
	parts := []string{header{m: m, st: st}.Render(l.header.w, l.header.h)}
	main := m.renderMain(st, l.list)
	if !l.compact {
		side := m.renderSide(st, l.side)
		rule := m.styles.Subtle.Render(m.styles.Glyphs.VRule)
		parts = append(parts, joinColumns(rule, main, side))
	} else {
		parts = append(parts, main)
		if l.side.h > 0 {
			parts = append(parts, m.sidePane(st, m.focus, l.side.w).Render(l.side.w, l.side.h))
		}
		parts = append(parts, summaryStrip{m: m, st: st}.Render(l.strip.w, l.strip.h))
	}
	parts = append(parts,
		scrubber{m: m}.Render(l.scrubber.w, l.scrubber.h),
		footer{m: m, st: st}.Render(l.footer.w, l.footer.h))
	// Every part is already exactly as wide as the screen and as tall as
	// its rectangle, so the parts are stacked without measuring them again.
	return stack(parts...)
}

// renderMain draws the main area: help, the kind picker, the inspector, or
// the event list.
func (m Model) renderMain(st reducer.State, r rect) string {
	switch {
	case m.showHelp:
		return helpView{keys: m.keys, styles: m.styles}.Render(r.w, r.h)
	case m.picker.open:
		return m.picker.Render(m, r.w, r.h)
	case m.insp.open:
		return m.insp.Render(m, r.w, r.h)
	}
	return eventList{m: m}.Render(r.w, r.h)
}

// maxTimeline is how many of the latest transitions the timeline shows: a
// frame's cost must not grow with a long conversation's history.
const maxTimeline = 200

// renderSide draws the wide layout's right column: the timeline, metrics,
// tasks and pending panes, each given the lines it needs when they fit.
func (m Model) renderSide(st reducer.State, r rect) string {
	if r.w <= 0 || r.h <= 0 {
		return ""
	}
	order := []pane{paneTimeline, paneMetrics, paneTasks, panePending}
	frames := make([]paneFrame, len(order))
	want := make([]int, len(order))
	for k, p := range order {
		frames[k] = m.sidePane(st, p, r.w)
		want[k] = len(frames[k].lines) + 1
	}
	heights := allocate(want, r.h, 3)
	blocks := make([]string, 0, len(order))
	for k := range order {
		if heights[k] > 0 {
			blocks = append(blocks, frames[k].Render(r.w, heights[k]))
		}
	}
	return fit(stack(blocks...), r.w, r.h)
}

// sidePane builds the frame of one of the state panes.
func (m Model) sidePane(st reducer.State, p pane, width int) paneFrame {
	f := paneFrame{title: p.title(), focused: m.focus == p, scroll: m.scroll[p], styles: m.styles}
	switch p {
	case paneTimeline:
		now := m.log.Event(max(m.cursor, 0)).Time
		// Only the transitions the pane can show are built: the latest
		// ones, back to what the scroll offset reaches.
		limit := min(maxTimeline, m.scroll[paneTimeline]+max(m.height, 1))
		f.lines = timelinePane{transitions: st.LastTransitions(limit), confirmed: st.StatusConfirmed, now: now,
			start: m.cache.startTime(m.log), absTime: m.absTime, styles: m.styles}.lines()
		f.fromBottom = true
	case paneMetrics:
		f.lines = metricsPane{metrics: st.Metrics, styles: m.styles}.lines()
	case paneTasks:
		f.lines = tasksPane{tasks: st.Tasks, styles: m.styles}.lines()
	case panePending:
		f.lines = pendingPane{pending: st.Pending, waiting: st.Status == "waiting_for_confirmation", styles: m.styles}.lines()
	default:
		return m.sidePane(st, paneMetrics, width)
	}
	return f
}

// allocate splits total rows between panes that want want[k] rows: each
// gets at least floor rows (when there is room), then the rest goes to
// those that want more, in order, and what is left over to the first.
func allocate(want []int, total, floor int) []int {
	out := make([]int, len(want))
	left := total
	for k := range want {
		out[k] = min(floor, want[k], left)
		left -= out[k]
	}
	for k := range want {
		extra := min(want[k]-out[k], left)
		if extra > 0 {
			out[k] += extra
			left -= extra
		}
	}
	if left > 0 && len(out) > 0 {
		out[0] += left
	}
	return out
}
