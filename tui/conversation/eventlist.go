package conversation

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// eventList renders the list pane: only the rows of the visible window,
// each cached by (index, width, time mode); the cursor's row and bookmark
// marks are drawn over the cached text, so moving the cursor re-renders
// nothing but the marker column. It is given the log to read the rows'
// events from and the view settings it draws (listOf), nothing else.
type eventList struct {
	box
	cells text.Cells
	// km is the key map as it applies now; live words G as "live".
	km     *tui.KeyMap
	live   bool
	styles *theme.Styles
	// log is read for the rows' events; the list never changes it.
	log *reducer.Log
	// rows are the window's events, forgotten says which of them a
	// condensation had forgotten as of the cursor.
	rows      []int
	forgotten []bool
	cursor    int
	focused   bool
	// labels are the title's notes after the position: the filter, the
	// search, the time mode.
	labels    []string
	timeMode  tui.TimeMode
	bookmarks []int
	// branchPoints are the events of a tree with more than one way on.
	branchPoints []int
	// linked are the rows another conversation came from (linkedRows).
	linked []int
	// query is the search the rows highlight; details are its matches
	// found only in an event's raw JSON, which their rows mark.
	query   string
	details []int
	// empty is what the list says while the log is empty.
	empty string
	start time.Time
	cache *rowCache
	// wide: the time column prints times past a day in full (wideTimes).
	wide bool
}

// listOf gives the list what it draws in a window h rows tall (its title
// line included).
func (m *Conversation) listOf(h int, k *tui.KeyMap) *eventList {
	rows := m.visibleRows(max(h-1, 0))
	m.cache.forget.update(m.Log)
	forgotten := make([]bool, len(rows))
	for j, i := range rows {
		forgotten[j] = m.cache.forget.forgottenAt(i, m.cursor)
	}
	var labels []string
	if f := m.filter.label(); f != "" {
		labels = append(labels, f)
	}
	if s := m.narrow.label(); s != "" {
		labels = append(labels, s)
	}
	if s := m.search.label(); s != "" {
		labels = append(labels, s)
	}
	if m.timeMode != tui.TimeRelative {
		labels = append(labels, m.timeMode.String()+" times")
	}
	if m.zoom {
		labels = append(labels, "zoomed ("+k.Zoom.Help().Key+")")
	}
	empty := "waiting for events…"
	if m.Opts.Feed == nil || m.feedDone {
		empty = "no events"
	}
	return &eventList{km: k, live: m.Opts.Live, styles: &m.styles, cells: m.Cells, log: m.Log, rows: rows, forgotten: forgotten,
		cursor: m.cursor, focused: m.focus == paneList, labels: labels, timeMode: m.timeMode, bookmarks: m.bookmarks,
		query: m.search.query, details: m.search.details, empty: empty, start: m.cache.startTime(m.Log), cache: &m.cache.rows,
		branchPoints: m.branchPoints(), linked: m.linkedRows(rows)}
}

// ShortHelp implements Pane.
func (l *eventList) ShortHelp() []key.Binding { return listKeys(*l.km, l.live) }

// View implements Pane: exactly width×height cells.
func (l *eventList) View() string {
	width, height := l.width, l.height
	if width <= 0 || height <= 0 {
		return ""
	}
	anyForgotten := slices.Contains(l.forgotten, true)
	anyDetail := false
	for _, i := range l.rows {
		anyDetail = anyDetail || l.inDetails(i)
	}
	anyLinked := false
	for _, i := range l.linked {
		anyLinked = anyLinked || (i != l.cursor && !slices.Contains(l.bookmarks, i) && !slices.Contains(l.branchPoints, i))
	}
	// Every line is made exactly width cells here, so the block is joined
	// without measuring the (cached) rows again.
	out := make([]string, 0, height)
	out = append(out, l.cells.Fit(l.title(width, anyForgotten, anyLinked, anyDetail), width))
	if l.log.Len() == 0 {
		out = append(out, l.cells.Fit(l.styles.Muted.Render(l.empty), width))
	}
	numWidth := len(strconv.Itoa(l.log.Len())) + 1
	l.wide = l.wideTimes(width-2, l.start)
	for k, i := range l.rows {
		out = append(out, l.row(i, width, numWidth, l.start, l.forgotten[k]))
	}
	blank := strings.Repeat(" ", width)
	for len(out) < height {
		out = append(out, blank)
	}
	return strings.Join(out[:height], "\n")
}

// title is the list's heading: position, filter and search state, and the
// legends of the forgotten, linked and matched-in-details marks when a row
// on the screen carries them.
func (l *eventList) title(width int, forgotten, linked, detail bool) string {
	s := l.styles
	parts := []string{paneList.title()}
	if l.cursor >= 0 {
		parts = append(parts, tui.Ordinal(l.cursor)+"/"+strconv.Itoa(l.log.Len()))
	}
	parts = append(parts, l.labels...)
	if forgotten {
		parts = append(parts, s.Glyphs.Forgotten+" forgotten by condensation")
	}
	if linked {
		parts = append(parts, s.Glyphs.MarkLink+" forked or launched here ("+l.km.OpenLink.Help().Key+")")
	}
	if detail {
		parts = append(parts, detailMark+" matched in details ("+l.km.Inspect.Help().Key+")")
	}
	st := s.PaneTitle
	mark := s.Glyphs.HRule
	if l.focused {
		st, mark = s.PaneFocus, "▌"
	}
	head := st.Render(mark + " " + strings.Join(parts, " · ") + " ")
	return head + s.Subtle.Render(strings.Repeat(s.Glyphs.HRule, max(width-l.cells.Width(head), 0)))
}

// row renders event i's row: the gutter, then the cached text. The
// gutter's first cell holds the cursor, its second a bookmark, branch
// point or link (so the selected row keeps its mark), its third the mark
// of an event forgotten by a condensation as of the cursor (the event is
// still in the log, but the LLM no longer sees it).
func (l *eventList) row(i, width, numWidth int, start time.Time, forgotten bool) string {
	s := l.styles
	g := s.Glyphs
	detail := l.inDetails(i)
	key := rowKey{index: i, width: width, numWidth: numWidth, timeMode: l.timeMode, wide: l.wide, start: start.UnixNano(), query: l.query, detail: detail}
	gone := " "
	if forgotten {
		gone = g.Forgotten
	}
	mark, markStyle := " ", s.Text
	switch {
	case slices.Contains(l.bookmarks, i):
		mark, markStyle = g.MarkBook, s.Accent
	case slices.Contains(l.branchPoints, i):
		mark, markStyle = g.MarkBranch, s.Info
	case slices.Contains(l.linked, i):
		mark, markStyle = g.MarkLink, s.Info
	}
	if i == l.cursor {
		text := l.rowText(i, max(width-rowGutter, 0), numWidth, start, true, detail)
		return s.Selected.Render(l.cells.Fit(g.Cursor+mark+gone+text, width))
	}
	text := l.cache.row(key, func() string { return l.rowText(i, max(width-rowGutter, 0), numWidth, start, false, detail) })
	if mark != " " {
		mark = markStyle.Render(mark)
	}
	if forgotten {
		gone = s.Subtle.Render(gone)
	}
	return " " + mark + gone + text
}

// rowGutter is the cells before a row's text: cursor, mark, forgotten.
const rowGutter = 3

// inDetails reports whether event i matches the search only in its raw
// JSON (a binary search in the search's details).
func (l *eventList) inDetails(i int) bool {
	_, found := slices.BinarySearch(l.details, i)
	return found && l.query != ""
}

// detailMark leads the summary of a row the search matched only in its
// event's raw JSON: the row itself shows nothing of the match, and the
// inspector (enter) shows where it is.
const detailMark = "…"

// rowText renders the text of event i's row, w cells wide; plain leaves
// out colours (the selected row is drawn in one style); detail marks a
// search match found only in the event's details (detailMark).
func (l *eventList) rowText(i, w, numWidth int, start time.Time, plain, detail bool) string {
	s := l.styles
	style := func(st interface{ Render(...string) string }, text string) string {
		if plain {
			return text
		}
		return st.Render(text)
	}
	ev := l.log.Event(i)
	num := tui.Ordinal(i)
	num = strings.Repeat(" ", max(numWidth-len(num), 0)) + num
	when := l.timeText(i, &ev, start, l.wide)
	col := 8
	if l.wide {
		col = 10
	}
	when = strings.Repeat(" ", max(col-len(when), 0)) + when
	source := sanitize.Line(ev.Source)
	if source == "environment" {
		source = "env"
	}
	source = l.cells.Fit(source, 5)
	kind := shortKind(&ev)
	summary := sanitize.Line(ev.Summary)
	if summary == "" {
		summary = sanitize.Line(ev.Kind)
	}
	var b strings.Builder
	b.WriteString(style(s.Muted, num) + " " + style(s.Muted, when) + " " +
		style(s.Source(ev.Source), source) + " ")
	errRow := isError(&ev)
	if errRow {
		b.WriteString(style(s.Error, l.cells.Fit(s.Glyphs.Error+kind, kindColumnLen)) + " ")
	} else {
		b.WriteString(style(s.Accent, l.cells.Fit(kind, kindColumnLen)) + " ")
	}
	if pair := l.pairing(i, &ev); pair != "" {
		b.WriteString(style(s.Muted, pair) + " ")
	}
	if a, ok := ev.Body.(*model.Action); ok && a.SecurityRisk == "HIGH" {
		// A HIGH-risk action is what a person must notice while scanning:
		// said in words, so it survives NO_COLOR and the selected row.
		b.WriteString(style(s.Risk(a.SecurityRisk), "HIGH") + " ")
	}
	if detail {
		// In the match colour, as a highlight would be (the mark alone
		// where there are no colours).
		b.WriteString(highlight(*s, detailMark, detailMark, s.Text, plain) + " ")
	}
	if errRow {
		b.WriteString(highlight(*s, l.query, summary, s.Error, plain))
	} else {
		b.WriteString(highlight(*s, l.query, summary, s.Text, plain))
	}
	return l.cells.Fit(b.String(), w)
}

// wideTimeFrom is the row width from which the time column has room for
// "+4d07h12m".
const wideTimeFrom = 100

// wideTimes reports whether rows w cells wide print times past a day in
// full ("+4d07h12m", two cells more): only when there is room and the
// conversation lasts that long, so shorter ones keep the narrow column.
func (l *eventList) wideTimes(w int, start time.Time) bool {
	n := l.log.Len()
	if w < wideTimeFrom || n == 0 || start.IsZero() {
		return false
	}
	last := l.log.Event(n - 1).Time
	return !last.IsZero() && last.Sub(start) >= 24*time.Hour
}

// timeText is event i's time in the list's time mode.
func (l *eventList) timeText(i int, ev *model.Event, start time.Time, wide bool) string {
	switch l.timeMode {
	case tui.TimeAbsolute:
		return l.backwards(i, ev) + format.Clock(ev.Time)
	case tui.TimeGap:
		if i == 0 {
			return "+0ms"
		}
		return tui.GapText(ev.Time, l.log.Event(i-1).Time)
	}
	return l.backwards(i, ev) + tui.OffsetText(ev.Time, start, wide)
}

// backwards marks a time earlier than the event's before it ("<+2:01"
// under "+2:03"): times are shown as recorded, but the list must not read
// as if time ran backwards unremarked.
func (l *eventList) backwards(i int, ev *model.Event) string {
	if i == 0 || ev.Time.IsZero() {
		return ""
	}
	if prev := l.log.Event(i - 1).Time; !prev.IsZero() && ev.Time.Before(prev) {
		return timeBackwards
	}
	return ""
}

// timeBackwards marks a row whose time is earlier than the row before it.
const timeBackwards = "<"

// pairing describes the action event i, a result, answers and how long
// it took: "↳#12 1.4s". Which action is the log's one answer to "the
// result of an action" (Log.ActionOf), the one the inspector, the compare
// screen and the export name.
func (l *eventList) pairing(i int, ev *model.Event) string {
	actionAt, ok := l.log.ActionOf(i)
	if !ok {
		return ""
	}
	s := l.styles.Glyphs.Paired + tui.Ordinal(actionAt)
	if at := l.log.Event(actionAt).Time; !at.IsZero() && !ev.Time.IsZero() {
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
