package conversation

import (
	"strconv"
	"strings"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// header renders the top lines: what is watched and from where, the
// connection, the execution status as of the cursor, and whether the cursor
// follows the newest event or is pinned in the past. The view words its
// connection and position (headerOf); the header lays them out.
type header struct {
	box
	cells text.Cells
	noKeys
	styles        *theme.Styles
	title, source string
	// conn is the connection's word, styled; pos the cursor's position
	// ("LIVE", "⏸ 12/40 · +3 new"), styled.
	conn, pos string
	// st is the state as of the cursor and verdict the verdict on it.
	st      reducer.State
	verdict reducer.Verdict
	// live is the latest status, styled, while the cursor is pinned in
	// the past of a live conversation, and how a recording ends while the
	// cursor is before its end; "" otherwise.
	live     string
	warnings int
	play     player
	// branch names the branch shown of a tree, styled; "" for a linear log.
	branch string
	// guards says how far the armed guards are from their limits; "" for
	// none.
	guards string
	// trail is the breadcrumb of the screens under this one, shown where
	// the header says "ohwatch" (fleet › Fix the cache ›).
	trail []string
	// unknown is set while a live conversation has told nothing yet (the
	// socket never delivered): its status is unknown, not "idle".
	unknown bool
}

// headerOf gives the header what it draws.
func (m *Conversation) headerOf(st reducer.State) *header {
	live := ""
	if m.Opts.Live && !m.follow {
		// Pinned in the past: the conversation goes on, and what it does
		// now (waiting for approval, say) matters more than the past.
		s := m.styles
		l := m.Log.Latest()
		live = s.Muted.Render(" · live ") + statusText(s, l.Status, l.StatusConfirmed, format.Status(l.Status, l.StatusConfirmed))
	} else if m.recordingEnded() && m.cursor >= 0 && m.cursor < m.Log.Len()-1 {
		live = m.outcome()
	}
	return &header{styles: &m.styles, cells: m.Cells, title: m.Opts.Title, source: m.Opts.Source, conn: m.connBadge(),
		pos: m.positionBadge(), st: st, verdict: m.verdict(st), live: live, warnings: len(m.warns), play: m.play,
		branch: m.branchLabel(m.styles), guards: m.guardBadge(),
		trail: m.trail, unknown: m.Opts.Live && m.Log.Len() == 0 && !m.socketLive()}
}

// outcome is how a recording ends, said beside the state as of a cursor
// in its past ("· ends finished · $0.31"): opened at its first event, a
// finished recording would otherwise read idle and $0.00.
func (m *Conversation) outcome() string {
	s := m.styles
	end := m.Log.Latest()
	v := end.Verdict(true)
	out := s.Muted.Render(" · ends ") + statusText(s, end.Status, v.Final(), v.Short())
	if u := end.Metrics.Combined; end.MetricsReported() {
		out += s.Muted.Render(" · " + format.Cost(u.CostUSD, u.CostKnown))
	}
	return out
}

// View implements Pane.
func (h *header) View() string {
	width, height := h.width, h.height
	s := h.styles
	sep := s.Muted.Render(s.Glyphs.Separator)
	title := sanitize.Line(h.title)
	if title == "" {
		title = "conversation"
	}
	// The title gives way to the source and the connection, so a long
	// first user message cannot push the connection state off the screen.
	conn := sep + h.conn
	brand := s.Title.Render("ohwatch") + sep
	if len(h.trail) > 0 {
		// Where am I: the screens under this one, as k9s shows them.
		crumbs := make([]string, len(h.trail))
		for i, c := range h.trail {
			crumbs[i] = h.cells.Truncate(c, max(width/4, 8), "…")
		}
		brand = s.Muted.Render(strings.Join(crumbs, " › ") + " › ")
	}
	room := max(width-h.cells.Width(brand)-h.cells.Width(conn), 0)
	src := sanitize.Line(h.source)
	titleW, sepW, srcW := h.cells.Width(title), h.cells.Width(sep), h.cells.Width(src)
	switch {
	case src == "":
		titleW = min(titleW, room)
	case titleW+sepW+srcW > room:
		titleW = min(titleW, max(room-sepW-srcW, room*2/3, minTitleWidth))
	}
	line1 := brand + s.Bold.Render(h.cells.Truncate(title, titleW, "…"))
	if src != "" {
		if srcW := room - titleW - sepW; srcW > 0 {
			line1 += sep + s.Muted.Render(h.cells.Truncate(src, srcW, "…"))
		}
	}
	line1 += conn
	line2 := h.statusLine(width)
	if height == 1 {
		return h.cells.Block(line2+sep+line1, width, 1)
	}
	return h.cells.Block(line1+"\n"+line2, width, height)
}

// minTitleWidth is the room the title keeps however long the source is.
const minTitleWidth = 16

// connBadge describes the source's connection state, styled.
func (m *Conversation) connBadge() string {
	s := m.styles
	if m.conn == nil {
		switch {
		case m.Opts.Feed == nil || m.feedDone:
			return s.Muted.Render("recorded")
		case m.Opts.Live:
			return s.Warn.Render("connecting")
		}
		if m.progress != nil {
			return loadingBadge(s, m.progress)
		}
		return s.Info.Render("reading")
	}
	if m.Opts.Live {
		word := m.connWord()
		switch m.conn.Phase {
		case model.PhaseLive:
			return s.OK.Render(word) + m.runtimeBadge()
		case model.PhaseLost:
			return s.Error.Render(word) + m.runtimeBadge()
		case model.PhaseDone:
			return s.Muted.Render(word) + m.runtimeBadge()
		}
		return s.Warn.Render(word) + m.runtimeBadge()
	}
	if m.conn.Phase == model.PhaseLost {
		return s.Error.Render("lost")
	}
	return s.Muted.Render(m.conn.Phase.String())
}

// statusLine is the second header line: status, counters, position. The
// status gives up its provenance before the line overflows width.
func (h *header) statusLine(width int) string {
	s := h.styles
	st := h.st
	sep := s.Muted.Render(s.Glyphs.Separator)
	labels := h.verdictLabels()
	final := h.verdict.Final()
	status := func(label string) string {
		if h.unknown {
			return s.Muted.Render("status " + format.Unknown)
		}
		return s.Muted.Render("status ") + statusText(*s, st.Status, final, label) + h.live
	}
	parts := []string{
		status(labels[0]),
		s.Muted.Render("iter ") + Itoa(st.Iteration),
		s.Muted.Render("steps ") + Itoa(st.Steps),
	}
	if st.ErrorCount > 0 {
		parts = append(parts, s.Error.Render(format.Plural(st.ErrorCount, "error")))
	}
	if h.warnings > 0 {
		// W lists them.
		parts = append(parts, s.Warn.Render(format.Plural(h.warnings, "warning"))+s.Muted.Render(" (W)"))
	}
	parts = append(parts, h.pos)
	if h.branch != "" {
		parts = append(parts, h.branch)
	}
	if h.guards != "" {
		parts = append(parts, s.Muted.Render(h.guards))
	}
	if h.play.on {
		parts = append(parts, s.Info.Render(tui.FormatSpeed(h.play.speed)))
	} else if h.play.speed != 1 {
		parts = append(parts, s.Muted.Render(tui.FormatSpeed(h.play.speed)))
	}
	line := strings.Join(parts, sep)
	for _, short := range labels[1:] {
		if h.cells.Width(line) <= width {
			break
		}
		parts[0] = status(short)
		line = strings.Join(parts, sep)
	}
	return line
}

// verdictLabels are the status as of the cursor, worded as on every other
// surface (reducer.Verdict), widest first: in full, with its provenance,
// at the end of a recording that has ended ("finished (recorded,
// inferred)", then "finished (recorded)" where room is short); else
// short, with "finished?" while a finished is provisional.
func (h *header) verdictLabels() []string {
	v := h.verdict
	if v.Recorded {
		return []string{v.String(), v.Short() + " (recorded)", v.Short()}
	}
	return []string{v.Short()}
}

// positionBadge is LIVE while following, else "⏸ 1234/5678 · +37 new"
// ("▶" while a replay plays), styled.
func (m *Conversation) positionBadge() string {
	s := m.styles
	n := m.Log.Len()
	if m.follow && m.loading() {
		return s.Info.Render("↓ end " + strconv.Itoa(m.cursor+1) + "/" + strconv.Itoa(n))
	}
	if m.follow && m.Opts.Live && !m.socketLive() {
		// Never LIVE while the socket is not; what it is doing (and for
		// how long) the first header line says, once.
		if m.conn != nil && m.conn.Phase == model.PhaseLost {
			return s.Error.Render("not live")
		}
		return s.Warn.Render("not live")
	}
	if m.follow && !m.feedDone {
		return s.Live.Render(s.Glyphs.Live + " LIVE")
	}
	at := strconv.Itoa(m.cursor+1) + "/" + strconv.Itoa(n)
	// One indicator: playing replaces the pause mark rather than sitting
	// beside it.
	pos := s.Pinned.Render(s.Glyphs.Pinned + " " + at)
	if m.play.on {
		pos = s.Info.Render(s.Glyphs.Playing + " " + at)
	}
	if k := m.newSincePin(); k > 0 {
		pos += s.Muted.Render(s.Glyphs.Separator) + s.Warn.Render("+"+strconv.Itoa(k)+" new")
	}
	return pos
}
