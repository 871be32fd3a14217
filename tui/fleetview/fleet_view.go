package fleetview

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/fleet"
	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/dialog"
)

// fleetColumn is a column of the table as drawn: its width, and the
// screen width from which it is shown (the narrowest screens keep the
// columns that tell whether a conversation needs you).
type fleetColumn struct {
	col   fleet.Column
	width int
	from  int
}

// fleetLayout is every column but the title, in table order. At 80
// columns the table keeps what says whether a conversation needs you and
// what it costs (status, cost, tokens, pending, errors, idle); steps, the
// connection, calls, last activity and the source come as width allows.
var fleetLayout = []fleetColumn{
	{fleet.ColSource, 18, 150},
	{fleet.ColStatus, 11, 0},
	{fleet.ColSteps, 9, 90},
	{fleet.ColCost, 8, 0},
	{fleet.ColTokens, 7, 0},
	{fleet.ColCalls, 7, 120},
	{fleet.ColPending, 4, 0},
	{fleet.ColErrors, 4, 0},
	{fleet.ColActivity, 16, 140},
	{fleet.ColIdle, 10, 0},
	{fleet.ColConn, 12, 100},
	{fleet.ColRuntime, 16, 110},
}

// fleetMarkWidth is the cells before the title: the cursor and the
// attention mark.
const fleetMarkWidth = 3

// columns are the columns shown at the current width (the source column
// not when the rows are grouped by it: the headings say it).
func (f *Fleet) columns() []fleetColumn {
	var out []fleetColumn
	for _, c := range fleetLayout {
		if f.width >= c.from && !(c.col == fleet.ColSource && f.query.BySource) && f.shows(c.col) &&
			(c.col != fleet.ColRuntime || f.anyRuntime()) {
			out = append(out, c)
		}
	}
	return out
}

// bodyHeight is the number of lines for headings and rows: the screen
// less the heading, the column names and the footer.
func (f *Fleet) bodyHeight() int { return max(f.height-2-len(f.footerLines(1)), 1) }

// titleWidth is the title column's width: what the other columns leave.
func (f *Fleet) titleWidth(cols []fleetColumn) int {
	titleW := max(f.width, 1) - fleetMarkWidth
	for _, c := range cols {
		titleW -= c.width + 1
	}
	return max(titleW, 8)
}

// View draws the table, exactly width×height cells.
func (f *Fleet) View() string {
	w, h := max(f.width, 1), max(f.height, 1)
	if d := f.overlay.TopAt(dialog.Main); d != nil {
		// A dialog in the main place takes the whole screen.
		f.fitDialogs()
		d.SetSize(w, h)
		return d.View()
	}
	cols := f.columns()
	titleW := f.titleWidth(cols)
	lines := []string{f.Cells.Fit(f.heading(), w), f.Cells.Fit(f.styles.PaneTitle.Render(f.columnNames(cols, titleW)), w)}
	body := f.bodyLines(cols, titleW, w)
	lines = append(lines, body...)
	foot := f.footerLines(w)
	for len(lines) < h-len(foot) {
		lines = append(lines, "")
	}
	lines = append(lines[:min(len(lines), max(h-len(foot), 0))], foot...)
	return f.Cells.Block(strings.Join(lines, "\n"), w, h)
}

// footerLines is the footer: the question about a paused conversation
// (two lines) while it is asked, else one line.
func (f *Fleet) footerLines(w int) []string {
	if f.ask.active() {
		return f.controlLines(w)
	}
	if d := f.overlay.TopAt(dialog.Footer); d != nil {
		f.fitDialogs()
		d.SetSize(w, 0)
		return strings.Split(d.View(), "\n")
	}
	return []string{f.footer(w)}
}

// heading says what is watched, how many conversations, how many need
// you, and how the rows are chosen and ordered.
func (f *Fleet) heading() string {
	s := f.styles
	sep := s.Muted.Render(s.Glyphs.Separator)
	head := s.Title.Render("ohwatch") + sep + s.Bold.Render("fleet")
	n := f.fleet.Len()
	head += sep + format.Plural(n, "conversation")
	if len(f.rows) != n {
		head += " (" + strconv.Itoa(len(f.rows)) + " shown)"
	}
	if a := f.attentionCount(); a > 0 {
		head += sep + s.Warn.Render(strconv.Itoa(a)+" need you")
	}
	if f.feedDone {
		head += sep + s.Muted.Render("sources ended")
	}
	for _, src := range f.fleet.Sources() {
		if !src.Troubled() {
			continue
		}
		style := s.Warn
		if src.Conn.Phase == model.PhaseLost {
			style = s.Error
		}
		head += sep + style.Render(src.Label()+": "+src.Status())
	}
	order := "↑"
	if f.query.Desc {
		order = "↓"
	}
	head += sep + s.Muted.Render("sort ") + strings.ToLower(f.query.Sort.Name()) + " " + order
	if st := f.query.Status; st != "" {
		if st == fleet.StatusAttention {
			st = "needs you"
		}
		head += sep + s.Muted.Render("status ") + s.Accent.Render(st)
	}
	if f.query.Text != "" && !f.filtering {
		head += sep + s.Muted.Render("filter ") + s.Accent.Render("“"+sanitize.Line(f.query.Text)+"”")
	}
	if where := sanitize.Line(f.opts.Where); where != "" {
		head += sep + s.Muted.Render(where)
	}
	return head
}

// attentionCount is the number of rows shown under "attention".
func (f *Fleet) attentionCount() int {
	n := 0
	for i := range f.rows {
		if f.rows[i].Attn != fleet.NoAttention {
			n++
		}
	}
	return n
}

// columnNames is the line of column headings; the sort column is marked.
func (f *Fleet) columnNames(cols []fleetColumn, titleW int) string {
	name := func(c fleet.Column) string {
		n := c.Name()
		if c == f.query.Sort {
			if f.query.Desc {
				return n + "↓"
			}
			return n + "↑"
		}
		return n
	}
	parts := []string{strings.Repeat(" ", fleetMarkWidth) + f.Cells.Pad(name(fleet.ColTitle), titleW, false)}
	for _, c := range cols {
		parts = append(parts, f.Cells.Pad(name(c.col), c.width, c.col.Numeric()))
	}
	return strings.Join(parts, " ")
}

// bodyLines are the group headings and rows in the window.
func (f *Fleet) bodyLines(cols []fleetColumn, titleW, w int) []string {
	s := f.styles
	h := f.bodyHeight()
	if len(f.rows) == 0 {
		msg := "no conversations yet"
		switch {
		case f.fleet.Len() > 0:
			msg = "no conversation matches the filter · esc clears it"
		case f.feedDone:
			msg = "no conversations"
		}
		out := []string{f.Cells.Fit(s.Muted.Render("   "+msg), w)}
		if f.fleet.Len() == 0 {
			// Nothing to list: say why, whole, where the heading may cut
			// it (a root that does not exist, a server down).
			for _, src := range f.fleet.Sources() {
				if src.Troubled() {
					out = append(out, "", f.Cells.Fit(s.Warn.Render("   "+src.Label()+":"), w), f.Cells.Fit(s.Warn.Render("     "+src.Status()), w))
				}
			}
			// A newcomer's bare ohwatch lands here: point at the way in.
			out = append(out, "", f.Cells.Fit(s.Muted.Render("   new here? try 'ohwatch demo', or 'ohwatch demo --fleet' for a fleet"), w))
		}
		return out
	}
	var out []string
	// Start at the first row the window can show: each row is a line,
	// and each heading above one another.
	first := max(0, f.top-len(f.heads))
	line := f.lineOf(first)
	if _, ok := f.heads[first]; ok {
		line--
	}
	emit := func(text string) {
		if line >= f.top && line < f.top+h {
			out = append(out, text)
		}
		line++
	}
	for i := first; i < len(f.rows); i++ {
		r := &f.rows[i]
		if line >= f.top+h {
			break
		}
		if g, ok := f.heads[i]; ok {
			emit(f.groupHeading(g, w))
		}
		if line >= f.top && line < f.top+h {
			out = append(out, f.row(*r, cols, titleW, w, i == f.cursor))
		}
		line++
	}
	return out
}

// groupHeading names a group and counts its rows.
func (f *Fleet) groupHeading(g fleet.Group, w int) string {
	s := f.styles
	name := g.Name
	style := s.PaneTitle
	switch {
	case g.Attention:
		name, style = "needs you", s.Warn
	case name == "":
		name = "conversations"
	}
	return f.Cells.Fit(style.Render(s.Glyphs.HRule+" "+sanitize.Line(name))+s.Muted.Render(" ("+strconv.Itoa(len(g.Rows))+")"), w)
}

// row draws one conversation: the cursor, the attention mark, the title
// (indented under its parent), and the cells, the status coloured; the
// selected row in one style.
func (f *Fleet) row(r fleet.Row, cols []fleetColumn, titleW, w int, selected bool) string {
	s := f.styles
	title := fleet.ColTitle.Text(r, f.now)
	if r.Depth > 0 {
		title = strings.Repeat("  ", r.Depth-1) + s.Glyphs.Paired + " " + title
	}
	switch {
	case r.Ref == f.opening && f.resuming:
		title = "resuming… " + title
	case r.Ref == f.opening:
		title = "opening… " + title
	}
	title = f.compareMark(r.Ref) + title
	mark := " "
	if r.Attn != fleet.NoAttention {
		mark = "!"
	}
	if f.guardStopped(r.Ref) {
		mark = fleetGuardMark
	}
	// The selected row is drawn in the selection style, its status still
	// in its colour on the selection's background where the profile has
	// one (reverse video, below 256 colours, would turn it inside out).
	keepStatus := selected && s.Profile >= colorprofile.ANSI256
	cells := []string{f.Cells.Pad(f.fitTitle(title, r, titleW), titleW, false)}
	for _, c := range cols {
		text := f.Cells.Pad(f.Cells.Truncate(f.cellText(r, c.col), c.width, "…"), c.width, c.col.Numeric())
		switch {
		case !selected:
			text = f.cellStyle(r, c.col).Render(text)
		case keepStatus && c.col == fleet.ColStatus:
			sel := s.Selected
			text = f.cellStyle(r, c.col).Background(sel.GetBackground()).Bold(true).Render(text)
		case keepStatus:
			text = s.Selected.Render(text)
		}
		cells = append(cells, text)
	}
	if keepStatus {
		cells[0] = s.Selected.Render(cells[0])
		gap := s.Selected.Render(" ")
		line := s.Selected.Render(s.Glyphs.Cursor+mark+" ") + strings.Join(cells, gap)
		if pad := w - f.Cells.Width(line); pad > 0 {
			line += s.Selected.Render(strings.Repeat(" ", pad))
		}
		return f.Cells.Fit(line, w)
	}
	line := strings.Join(cells, " ")
	if selected {
		return s.Selected.Render(f.Cells.Fit(s.Glyphs.Cursor+mark+" "+line, w))
	}
	if mark != " " {
		mark = f.attnStyle(r.Attn).Render(mark)
	}
	return f.Cells.Fit(" "+mark+" "+line, w)
}

// cellText is a cell's words; the status in a word that fits its column,
// with the confirmed glyph on a final finished.
func (f *Fleet) cellText(r fleet.Row, c fleet.Column) string {
	if c != fleet.ColStatus {
		return sanitize.Line(c.Text(r, f.now))
	}
	label := c.Text(r, f.now)
	switch {
	case r.Verdict.Status == model.StatusWaitingForConfirmation:
		label = "waiting"
	case r.Verdict.Status == model.StatusFinished && r.Verdict.Final():
		label = f.styles.Glyphs.Confirmed + " " + label
	}
	return sanitize.Line(label)
}

// cellStyle colours a cell: the status as the conversation header does,
// errors and a lost connection in the error colour, unknowns muted.
func (f *Fleet) cellStyle(r fleet.Row, c fleet.Column) lipgloss.Style {
	s := f.styles
	switch c {
	case fleet.ColStatus:
		return s.StatusOf(r.Verdict.Status, r.Verdict.Final())
	case fleet.ColErrors:
		if r.Errors > 0 {
			return s.Error
		}
	case fleet.ColPending:
		if r.Pending > 0 {
			return s.Warn
		}
	case fleet.ColConn:
		switch {
		case r.Paused:
			return s.Muted
		case !r.ConnKnown:
			return s.Muted
		case r.Conn.Phase == model.PhaseLost:
			return s.Error
		case r.Conn.Phase == model.PhaseReconnecting:
			return s.Warn
		case r.Conn.Phase == model.PhaseLive:
			return s.OK
		}
		return s.Muted
	}
	if c.Text(r, f.now) == format.Unknown {
		return s.Muted
	}
	return s.Text
}

// attnStyle colours the attention mark by its reason.
func (f *Fleet) attnStyle(a fleet.Attention) lipgloss.Style {
	switch a {
	case fleet.AttnError:
		return f.styles.Error
	case fleet.AttnFinished:
		return f.styles.OK
	}
	return f.styles.Warn
}

// footer is the filter line while it is open, else a message, else the
// keys.
func (f *Fleet) footer(w int) string {
	s := f.styles
	switch {
	case f.filtering:
		return f.Cells.Fit(s.Prompt.Render("/")+conversation.InputField(f.Cells, f.in, max(w-30, 10))+s.Muted.Render("  enter keep · esc clear"), w)
	case f.flash != "":
		return f.Cells.Fit(s.Warn.Render(f.flash), w)
	}
	// The keys that fit, and always "? all keys  q quit" last.
	h := help.New()
	h.ShortSeparator = "  "
	h.Styles = help.Styles{Ellipsis: s.Muted, ShortKey: s.Key, ShortDesc: s.KeyDesc, ShortSeparator: s.Muted}
	keys := f.ShortHelp()
	tail := h.ShortHelpView(keys[len(keys)-2:])
	h.SetWidth(max(w-f.Cells.Width(tail)-2, 0))
	head := h.ShortHelpView(keys[:len(keys)-2])
	if head == "" {
		return f.Cells.Fit(tail, w)
	}
	return f.Cells.Fit(head+"  "+tail, w)
}

// ShortHelp implements help.KeyMap: the keys of the footer, or of the
// dialog open over the table.
func (f *Fleet) ShortHelp() []key.Binding {
	if d := f.overlay.Top(); d != nil {
		return d.ShortHelp()
	}
	k := f.keys
	open := k.Open
	open.SetEnabled(f.opts.Open != nil && len(f.rows) > 0)
	return []key.Binding{open, tui.Shortly(k.Down, "j/k", "move"), tui.Shortly(k.Sort, "s/S", "sort"), tui.Shortly(k.Filter, "/", "filter"),
		tui.Shortly(k.Status, "f", "status"), tui.Shortly(k.Group, "v", "group"), tui.Shortly(k.Seen, "u", "seen"), k.Help, k.Quit}
}

// FullHelp implements help.KeyMap: every key.
func (f *Fleet) FullHelp() [][]key.Binding { return f.keys.FullHelp() }

// fleetNotification is what the terminal gets when conversations newly
// need attention: the bell, then a desktop notification as OSC 9 and OSC
// 777, as a single conversation's view sends (attention.go). It names the
// first conversation and counts the others that rang with it.
func fleetNotification(n fleet.Notice, tmux bool) string {
	head := "ohwatch"
	if t := conversation.NotifyText(n.First.Title); t != "" {
		head += ": " + t
	}
	body := conversation.NotifyText(conversation.StatusSentence(n.First.To.Status))
	if n.More > 0 {
		body += ", and " + strconv.Itoa(n.More) + " more need you"
	}
	return tui.NotifySequence(head, body, tmux)
}
