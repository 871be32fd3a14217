package tui

import (
	"strconv"
	"strings"
	"time"

	"ohwatch/format"
	"ohwatch/model"
)

// pairScan bounds the backward search for the action an AgentErrorEvent
// answers (it names only the tool call id).
const pairScan = 64

// eventList renders the list pane: only the rows of the visible window,
// each cached by (index, width, time mode); the cursor's row and bookmark
// marks are drawn over the cached text, so moving the cursor re-renders
// nothing but the marker column.
type eventList struct {
	m *Conversation
	// wide: the time column prints times past a day in full (wideTimes).
	wide bool
}

// Render implements the pane contract: exactly width×height cells.
func (l eventList) Render(width, height int) string {
	m := l.m
	if width <= 0 || height <= 0 {
		return ""
	}
	rows := m.visibleRows(height - 1)
	m.cache.forget.update(m.log)
	forgotten := make([]bool, len(rows))
	anyForgotten := false
	for k, i := range rows {
		forgotten[k] = m.cache.forget.forgottenAt(i, m.cursor)
		anyForgotten = anyForgotten || forgotten[k]
	}
	// Every line is made exactly width cells here, so the block is joined
	// without measuring the (cached) rows again.
	out := make([]string, 0, height)
	out = append(out, fitLine(l.title(width, anyForgotten), width))
	if m.log.Len() == 0 {
		msg := "waiting for events…"
		if m.opts.Feed == nil || m.feedDone {
			msg = "no events"
		}
		out = append(out, fitLine(m.styles.Muted.Render(msg), width))
	}
	numWidth := len(strconv.Itoa(m.log.Len())) + 1
	start := m.cache.startTime(m.log)
	l.wide = l.wideTimes(width-2, start)
	for k, i := range rows {
		out = append(out, l.row(i, width, numWidth, start, forgotten[k]))
	}
	blank := strings.Repeat(" ", width)
	for len(out) < height {
		out = append(out, blank)
	}
	return strings.Join(out[:height], "\n")
}

// title is the list's heading: position, filter and search state, and the
// legend of the forgotten mark when a row on the screen carries it.
func (l eventList) title(width int, forgotten bool) string {
	m := l.m
	parts := []string{m.focusTitle(paneList)}
	if m.cursor >= 0 {
		parts = append(parts, ordinal(m.cursor)+"/"+strconv.Itoa(m.log.Len()))
	}
	if f := m.filter.label(); f != "" {
		parts = append(parts, f)
	}
	if s := m.search.label(); s != "" {
		parts = append(parts, s)
	}
	if m.timeMode != timeRelative {
		parts = append(parts, m.timeMode.String()+" times")
	}
	if forgotten {
		parts = append(parts, m.styles.Glyphs.Forgotten+" forgotten by condensation")
	}
	st := m.styles.PaneTitle
	mark := m.styles.Glyphs.HRule
	if m.focus == paneList {
		st, mark = m.styles.PaneFocus, "▌"
	}
	head := st.Render(mark + " " + strings.Join(parts, " · ") + " ")
	return head + m.styles.Subtle.Render(strings.Repeat(m.styles.Glyphs.HRule, max(width-textWidth(head), 0)))
}

// focusTitle is a pane's name.
func (m *Conversation) focusTitle(p pane) string { return p.title() }

// row renders event i's row: the marker column, then the cached text. The
// marker column's first cell holds the cursor or a bookmark, its second
// the mark of an event forgotten by a condensation as of the cursor (the
// event is still in the log, but the LLM no longer sees it).
func (l eventList) row(i, width, numWidth int, start time.Time, forgotten bool) string {
	m := l.m
	g := m.styles.Glyphs
	key := rowKey{index: i, width: width, numWidth: numWidth, timeMode: m.timeMode, wide: l.wide, start: start.UnixNano(), query: m.search.query}
	gone := " "
	if forgotten {
		gone = g.Forgotten
	}
	if i == m.cursor {
		text := l.rowText(i, width-2, numWidth, start, true)
		return m.styles.Selected.Render(fitLine(g.Cursor+gone+text, width))
	}
	text := m.cache.row(key, func() string { return l.rowText(i, width-2, numWidth, start, false) })
	marker := " "
	if m.isBookmarked(i) {
		marker = m.styles.Accent.Render(g.MarkBook)
	}
	if forgotten {
		gone = m.styles.Subtle.Render(gone)
	}
	return marker + gone + text
}

// rowText renders the text of event i's row, w cells wide; plain leaves
// out colours (the selected row is drawn in one style).
func (l eventList) rowText(i, w, numWidth int, start time.Time, plain bool) string {
	m := l.m
	s := m.styles
	style := func(st interface{ Render(...string) string }, text string) string {
		if plain {
			return text
		}
		return st.Render(text)
	}
	ev := m.log.Event(i)
	num := ordinal(i)
	num = strings.Repeat(" ", max(numWidth-len(num), 0)) + num
	when := l.timeText(i, &ev, start, l.wide)
	col := 8
	if l.wide {
		col = 10
	}
	when = strings.Repeat(" ", max(col-len(when), 0)) + when
	source := model.SanitizeLine(ev.Source)
	if source == "environment" {
		source = "env"
	}
	source = fitLine(source, 5)
	kind := shortKind(&ev)
	summary := model.SanitizeLine(ev.Summary)
	if summary == "" {
		summary = model.SanitizeLine(ev.Kind)
	}
	var b strings.Builder
	b.WriteString(style(s.Muted, num) + " " + style(s.Muted, when) + " " +
		style(s.Source(ev.Source), source) + " ")
	errRow := isError(&ev)
	if errRow {
		b.WriteString(style(s.Error, fitLine(s.Glyphs.Error+kind, kindColumnLen)) + " ")
	} else {
		b.WriteString(style(s.Accent, fitLine(kind, kindColumnLen)) + " ")
	}
	if pair := l.pairing(&ev); pair != "" {
		b.WriteString(style(s.Muted, pair) + " ")
	}
	if a, ok := ev.Body.(*model.Action); ok && a.SecurityRisk == "HIGH" {
		// A HIGH-risk action is what a person must notice while scanning:
		// said in words, so it survives NO_COLOR and the selected row.
		b.WriteString(style(s.Risk(a.SecurityRisk), "HIGH") + " ")
	}
	if errRow {
		b.WriteString(m.highlight(summary, s.Error, plain))
	} else {
		b.WriteString(m.highlight(summary, s.Text, plain))
	}
	return fitLine(b.String(), w)
}

// wideTimeFrom is the row width from which the time column has room for
// "+4d07h12m".
const wideTimeFrom = 100

// wideTimes reports whether rows w cells wide print times past a day in
// full ("+4d07h12m", two cells more): only when there is room and the
// conversation lasts that long, so shorter ones keep the narrow column.
func (l eventList) wideTimes(w int, start time.Time) bool {
	n := l.m.log.Len()
	if w < wideTimeFrom || n == 0 || start.IsZero() {
		return false
	}
	last := l.m.log.Event(n - 1).Time
	return !last.IsZero() && last.Sub(start) >= 24*time.Hour
}

// timeText is event i's time in the list's time mode.
func (l eventList) timeText(i int, ev *model.Event, start time.Time, wide bool) string {
	switch l.m.timeMode {
	case timeAbsolute:
		return format.Clock(ev.Time)
	case timeGap:
		if i == 0 {
			return "+0ms"
		}
		return gapText(ev.Time, l.m.log.Event(i-1).Time)
	}
	return offsetText(ev.Time, start, wide)
}

// pairing describes the action a result answers and how long it took:
// "↳#12 1.4s".
func (l eventList) pairing(ev *model.Event) string {
	m := l.m
	actionAt := -1
	switch b := ev.Body.(type) {
	case *model.Observation:
		if i, ok := m.log.IndexOf(b.ActionID); ok {
			actionAt = i
		}
	case *model.UserReject:
		if i, ok := m.log.IndexOf(b.ActionID); ok {
			actionAt = i
		}
	case *model.AgentError:
		actionAt = l.actionByCallID(b.ToolCallID, ev.ID)
	}
	if actionAt < 0 {
		return ""
	}
	s := m.styles.Glyphs.Paired + ordinal(actionAt)
	if at := m.log.Event(actionAt).Time; !at.IsZero() && !ev.Time.IsZero() {
		d := ev.Time.Sub(at)
		s += " " + format.Duration(d)
		if d < 0 {
			// A result stamped before its action: the clocks of the
			// machines that wrote them disagree. Said, not hidden.
			s += " (clock skew)"
		}
	}
	return s
}

// actionByCallID finds, among the events just before the one with id self,
// the action with the tool call id; -1 when there is none.
func (l eventList) actionByCallID(callID, self string) int {
	if callID == "" {
		return -1
	}
	m := l.m
	at, ok := m.log.IndexOf(self)
	if !ok {
		return -1
	}
	for i := at - 1; i >= 0 && i >= at-pairScan; i-- {
		ev := m.log.Event(i)
		if a, ok := ev.Body.(*model.Action); ok && a.ToolCallID == callID {
			return i
		}
	}
	return -1
}
