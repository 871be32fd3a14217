package conversation

import (
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
)

// render composes the screen from the panes, each built from what it
// draws and sized by layout. Its cost does not grow with the conversation:
// one At (cached), the visible rows (cached), and the scrubber's marks.
func (m *Conversation) render() string {
	l := m.layout()
	st := m.state()
	// The key map as it applies now, kept in the cache so the panes can
	// point at it without a copy each.
	m.cache.keys = m.activeKeys(st)
	k := &m.cache.keys
	m.tellInspector()
	m.fitDialogs(*k)
	parts := []string{draw(m.headerOf(st), l.header.w, l.header.h)}
	if l.banner.h > 0 {
		parts = append(parts, draw(m.bannerOf(), l.banner.w, l.banner.h))
	}
	main := draw(m.mainPane(k, l.list.h), l.list.w, l.list.h)
	if l.zoomed {
		parts = append(parts, m.zoomedPane(st, k, l, main))
	} else if d := m.listDialog(); d != nil && l.compact && dialog.PlaceOf(d) == dialog.Body {
		// The reference needs the room more than the summary does.
		body := m.helpArea()
		parts = append(parts, draw(d, body.w, body.h))
	} else if !l.compact {
		side := m.renderSide(st, k, l.side)
		rule := m.styles.Subtle.Render(m.styles.Glyphs.VRule)
		parts = append(parts, joinColumns(rule, main, side))
	} else {
		parts = append(parts, main)
		if l.side.h > 0 {
			parts = append(parts, draw(m.sidePane(st, k, m.focus, l.side.w, l.side.h), l.side.w, l.side.h))
		}
		parts = append(parts, draw(m.stripOf(st), l.strip.w, l.strip.h))
	}
	parts = append(parts,
		draw(m.scrubberOf(), l.scrubber.w, l.scrubber.h),
		draw(m.footerOf(st), l.footer.w, l.footer.h))
	// Every part is already exactly as wide as the screen and as tall as
	// its rectangle, so the parts are stacked without measuring them again.
	return stack(parts...)
}

// helpArea is where the key reference (a Body dialog) goes: the list's
// place, and in the compact layout also the summary's and the focused
// pane's below it.
func (m *Conversation) helpArea() rect {
	l := m.layout()
	if !l.compact {
		return l.list
	}
	return rect{l.list.x, l.list.y, l.list.w, l.list.h + l.side.h + l.strip.h}
}

// helpOf gives the key reference what it draws.
func (m *Conversation) helpOf() *helpView {
	k := m.keys
	replayKeys(&k, m.liveNow())
	return &helpView{keys: k, styles: &m.styles, cells: m.Cells}
}

// mainPane is the pane in the main area, h rows tall: a dialog (the
// help, the kind picker, the warnings list, the inspector), or the event
// list.
func (m *Conversation) mainPane(k *tui.KeyMap, h int) Pane {
	if d := m.listDialog(); d != nil {
		return d
	}
	return m.listOf(h, k)
}

// maxTimeline is how many of the latest transitions the timeline shows: a
// frame's cost must not grow with a long conversation's history.
const maxTimeline = 200

// renderSide draws the wide layout's right column: the timeline, metrics,
// tasks and pending panes, each as tall as its content (sideLayout), the
// rest of the column left blank below them.
func (m *Conversation) renderSide(st reducer.State, k *tui.KeyMap, r rect) string {
	if r.w <= 0 || r.h <= 0 {
		return ""
	}
	order, heights, frames := m.sideLayout(st, k, r)
	blocks := make([]string, 0, len(order))
	for j := range order {
		if heights[j] > 0 {
			blocks = append(blocks, draw(frames[j], r.w, heights[j]))
		}
	}
	return m.Cells.Block(stack(blocks...), r.w, r.h)
}

// sideGiveOrder is the order in which the panes under the timeline get
// rows beyond their floor when the column cannot show everything: what
// needs an answer first, then what it costs, then the plan. The timeline
// gets what is left.
var sideGiveOrder = []pane{panePending, paneMetrics, paneTasks}

// sideLayout returns the right column's panes in screen order with their
// heights and frames. Every pane takes the rows its (wrapped) lines need
// and no more, so a short timeline does not leave the task notes and the
// model name cut; the rest of the column stays blank below them. The
// timeline is built last, with only the lines its room can show, so a long
// history costs nothing per frame.
func (m *Conversation) sideLayout(st reducer.State, k *tui.KeyMap, r rect) ([]pane, []int, []*paneFrame) {
	order := []pane{paneTimeline, paneMetrics, paneTasks, panePending}
	frames := make([]*paneFrame, len(order))
	var want, got [paneCount]int
	for j, p := range order[1:] {
		frames[j+1] = m.sidePane(st, k, p, r.w, 0)
		want[p] = len(frames[j+1].lines) + 1
	}
	const floor = 3
	left := r.h - min(floor, r.h) // the timeline's floor
	for _, p := range order[1:] {
		got[p] = min(floor, want[p], left)
		left -= got[p]
	}
	for _, p := range sideGiveOrder {
		extra := min(want[p]-got[p], left)
		got[p] += extra
		left -= extra
	}
	room := left + min(floor, r.h)
	frames[0] = m.sidePane(st, k, paneTimeline, r.w, room)
	got[paneTimeline] = min(room, len(frames[0].lines)+1)
	heights := make([]int, len(order))
	for j, p := range order {
		heights[j] = got[p]
	}
	return order, heights, frames
}

// sidePane builds the frame of one of the state panes, its lines wrapped
// to width; height bounds what the timeline builds (0: as much as fits
// any screen).
// k is the key map as it applies now, for the pane's help.
func (m *Conversation) sidePane(st reducer.State, k *tui.KeyMap, p pane, width, height int) *paneFrame {
	f := &paneFrame{km: k, pane: p, title: p.title(), focused: m.focus == p, scroll: m.scroll[p], styles: &m.styles, cells: m.Cells}
	switch p {
	case paneTimeline:
		now := m.Log.Event(max(m.cursor, 0)).Time
		// Only the transitions the pane can show are built: the latest
		// ones, back to what the scroll offset reaches.
		if height <= 0 {
			height = max(m.height, 1)
		}
		limit := min(maxTimeline, m.scroll[paneTimeline]+height)
		f.lines = timelinePane{transitions: st.LastTransitions(limit), confirmed: m.verdict(st).Final(), now: now,
			start: m.cache.startTime(m.Log), absTime: m.timeMode == tui.TimeAbsolute, styles: &m.styles}.lines()
		f.fromBottom = true
	case paneMetrics:
		f.lines = metricsPane{metrics: st.Metrics, reported: st.MetricsReported(), styles: &m.styles}.lines()
	case paneTasks:
		f.lines = tasksPane{tasks: st.Tasks, styles: &m.styles}.lines()
	case panePending:
		f.lines = pendingPane{pending: st.Pending, waiting: st.Status == "waiting_for_confirmation", question: st.Question, styles: &m.styles}.lines()
	default:
		return m.sidePane(st, k, paneMetrics, width, height)
	}
	f.lines = wrapPaneLines(m.Cells, f.lines, width)
	return f
}
