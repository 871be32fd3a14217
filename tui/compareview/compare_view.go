package compareview

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"ohwatch/compare"
	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
)

// compareWide is the width from which the two sides stand side by side;
// narrower, they are stacked.
const compareWide = 110

// wide reports whether the sides stand side by side.
func (c *Compare) wide() bool { return c.width >= compareWide }

// paneLines is the height of the two sides' panes together.
func (c *Compare) paneLines() int {
	if c.wide() {
		return 3
	}
	return 4
}

// listRows is how many aligned rows the screen shows: the whole list when
// the sides stand side by side, each half when they are stacked.
func (c *Compare) listRows() int {
	body := c.height - 2 - c.paneLines() - 1 - 1 // header, panes, rule, footer
	if c.wide() {
		return max(body, 1)
	}
	return max((body-1)/2, 1) // a rule between the halves
}

// View draws the screen, exactly width×height.
func (c *Compare) View() string {
	w, h := c.width, c.height
	if w <= 0 || h <= 0 {
		return ""
	}
	if d := c.overlay.TopAt(dialog.Main); d != nil {
		// A dialog in the main place takes the whole screen.
		c.fitDialogs()
		return d.View()
	}
	lines := c.headerLines(w)
	if c.detail != nil {
		body := c.detail.view(c, w, h-len(lines)-1)
		lines = append(lines, body...)
		lines = append(lines, c.footer(w))
		return c.Cells.Block(strings.Join(lines, "\n"), w, h)
	}
	lines = append(lines, c.panes(w)...)
	lines = append(lines, c.styles.Muted.Render(strings.Repeat(c.styles.Glyphs.HRule, w)))
	if c.wide() {
		lines = append(lines, c.listWide(w, c.listRows())...)
	} else {
		n := c.listRows()
		lines = append(lines, c.listSide(0, w, n)...)
		lines = append(lines, c.styles.Muted.Render(strings.Repeat(c.styles.Glyphs.HRule, w)))
		lines = append(lines, c.listSide(1, w, n)...)
	}
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	lines = append(lines[:h-1], c.footer(w))
	return c.Cells.Block(strings.Join(lines, "\n"), w, h)
}

// headerLines are the screen's first two lines: what is compared, and how
// the runs line up.
func (c *Compare) headerLines(w int) []string {
	s := c.styles
	title := s.Title.Render("compare") + " " + s.Bold.Render("A") + " " + c.opts.A.Title + s.Muted.Render(" vs ") + s.Bold.Render("B") + " " + c.opts.B.Title
	var sum string
	switch {
	case c.Cmp == nil:
		sum = s.Muted.Render("aligning…")
	default:
		shared := "no event in common"
		if c.Cmp.SharedUntilID != "" {
			shared = "shared until event " + strconv.Itoa(c.Cmp.SharedUntil) + " (" + ShortID(c.Cmp.SharedUntilID) + ")"
		}
		div := s.OK.Render("no divergence")
		switch first := c.Cmp.FirstDiff; {
		case first < 0:
		case first > c.Cmp.endB && c.streaming(1):
			// B ran out of steps, and more may come: not a divergence yet.
			div = s.Info.Render("no divergence so far: B has not got past row " + strconv.Itoa(c.Cmp.endB))
		case first > c.Cmp.endA && c.streaming(0):
			div = s.Info.Render("no divergence so far: A has not got past row " + strconv.Itoa(c.Cmp.endA))
		default:
			div = s.Warn.Render(s.Glyphs.MarkBranch + " diverges at row " + strconv.Itoa(first))
		}
		counts := fmt.Sprintf("same %d · changed %d · only A %d · only B %d", c.Cmp.Same, c.Cmp.Changed, c.Cmp.OnlyA, c.Cmp.OnlyB)
		sum = shared + s.Muted.Render(" · ") + div + s.Muted.Render(" · ") + counts
		if c.aligning || !c.doneA || !c.doneB {
			sum += s.Muted.Render(" · ") + s.Live.Render("live")
		}
	}
	return []string{c.Cells.Fit(title, w), c.Cells.Fit(sum, w)}
}

// ShortID is the first eight characters of an id.
func ShortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// sideAt is what one side looks like as of the cursor's row: the event
// its last step at or before the row is, and the state there.
type sideAt struct {
	name   string
	event  int // -1 before the side's first step
	events int // events on the side's compared path
	// pos is event's place on that path (from 0): it differs from event
	// when the path skips the log's other branches.
	pos   int
	state reducer.State
	ended bool
}

// sideAtCursor is side (0 A, 1 B) as of the cursor's row.
func (c *Compare) sideAtCursor(side int) sideAt {
	run, name := c.runA, "A"
	if side == 1 {
		run, name = c.RunB, "B"
	}
	out := sideAt{name: name, event: -1, state: run.Log.Initial()}
	if c.Cmp == nil || len(c.Cmp.Rows) == 0 {
		return out
	}
	last, steps, path := c.Cmp.lastA, c.Cmp.StepsA, c.Cmp.PathA
	done, ended := c.doneA, c.opts.A.Ended
	if side == 1 {
		last, steps, path = c.Cmp.lastB, c.Cmp.StepsB, c.Cmp.PathB
		done, ended = c.doneB, c.opts.B.Ended
	}
	out.events = path.Len()
	if k := last[c.Cursor]; k >= 0 {
		out.event = steps[k].Event
	}
	// On the last row each side is at its end: the events after its last
	// step (its result, the status it ended in) are in.
	if c.Cursor == len(c.Cmp.Rows)-1 && path.Tip() >= 0 {
		out.event = path.Tip()
		out.ended = done && ended
	}
	if out.event >= 0 {
		out.state = run.Log.At(out.event)
		out.pos, _ = path.Pos(out.event)
	}
	return out
}

// panes are both sides' status, metrics and tasks as of the cursor.
func (c *Compare) panes(w int) []string {
	a, b := c.sideAtCursor(0), c.sideAtCursor(1)
	if c.wide() {
		colW := (w - 3) / 2
		la, lb := c.paneOf(a, colW, true), c.paneOf(b, w-3-colW, true)
		out := make([]string, len(la))
		for k := range la {
			out[k] = c.Cells.Fit(la[k], colW) + c.styles.Muted.Render(" "+c.styles.Glyphs.VRule+" ") + c.Cells.Fit(lb[k], w-3-colW)
		}
		return out
	}
	return append(c.paneOf(a, w, false), c.paneOf(b, w, false)...)
}

// paneOf is one side's pane: three lines side by side, two stacked.
func (c *Compare) paneOf(sd sideAt, w int, wide bool) []string {
	s := c.styles
	st := sd.state
	v := st.Verdict(sd.ended)
	where := "before its first step"
	if sd.event >= 0 {
		// The event as the TUI numbers it (":N" finds it in the side's
		// view); on a branched log its place on the compared path too,
		// which the log's numbers do not count.
		where = tui.Ordinal(sd.event) + " of " + strconv.Itoa(sd.events)
		if sd.pos != sd.event {
			where = tui.Ordinal(sd.event) + " (" + strconv.Itoa(sd.pos+1) + "/" + strconv.Itoa(sd.events) + " on its branch)"
		}
	}
	head := s.Bold.Render(sd.name) + " " + statusStyle(s, v.Status).Render(v.Short()) + s.Muted.Render(" · "+where)
	u := st.Metrics.Combined
	rep := st.MetricsReported()
	metrics := "cost " + format.Cost(u.CostUSD, u.CostKnown && rep) + s.Muted.Render(" · ") +
		"tokens " + format.Tokens(u.Prompt, rep) + " in " + format.Tokens(u.Completion, rep) + " out" + s.Muted.Render(" · ") +
		format.Int(u.LLMCalls, rep) + " LLM calls" + s.Muted.Render(" · ") + "errors " + strconv.Itoa(st.ErrorCount)
	if !rep {
		// One word for every figure, as the monitor's strip says it.
		metrics = "metrics " + format.Unknown + s.Muted.Render(" (none reported) · ") + "errors " + strconv.Itoa(st.ErrorCount)
	}
	tasks := tasksLine(st.Tasks)
	if wide {
		return []string{c.Cells.Fit(head, w), c.Cells.Fit("  "+metrics, w), c.Cells.Fit("  "+tasks, w)}
	}
	return []string{c.Cells.Fit(head+s.Muted.Render(" · ")+tasks, w), c.Cells.Fit("  "+metrics, w)}
}

// tasksLine is the checklist in one line: how many are done, and the one
// in progress.
func tasksLine(t reducer.Tasks) string {
	if len(t.Items) == 0 {
		return "no tasks"
	}
	done, doing := 0, ""
	for _, it := range t.Items {
		switch it.Status {
		case "done":
			done++
		case "in_progress":
			if doing == "" {
				doing = it.Title
			}
		}
	}
	out := fmt.Sprintf("tasks %d/%d done", done, len(t.Items))
	if doing != "" {
		out += ": " + doing
	}
	return out
}

// statusStyle colours a status as the header does.
func statusStyle(s theme.Styles, status string) lipgloss.Style {
	switch status {
	case "finished":
		return s.OK
	case "error", "stuck":
		return s.Error
	case "waiting_for_confirmation", "paused":
		return s.Warn
	case "running":
		return s.Info
	}
	return s.Text
}

// opMark is the one-cell mark of a row's op.
func (c *Compare) opMark(row compare.Row) string {
	s := c.styles
	switch row.Op {
	case compare.Changed:
		return s.Warn.Render("~")
	case compare.OnlyA:
		return s.DiffDel.Render("-")
	case compare.OnlyB:
		return s.DiffAdd.Render("+")
	}
	if row.Shared {
		return s.Muted.Render("=")
	}
	return " "
}

// gutter is the two cells before a row: the cursor, or the divergence
// mark on the first row that differs.
func (c *Compare) gutter(i int) string {
	s := c.styles
	switch {
	case i == c.Cursor:
		return s.Accent.Render(s.Glyphs.Cursor) + " "
	case c.Cmp != nil && i == c.Cmp.FirstDiff:
		return s.Warn.Render(s.Glyphs.MarkBranch) + " "
	}
	return "  "
}

// cell is one side's step on a row, w cells wide: a gap when it has none.
func (c *Compare) cell(side, k, w int) string {
	s := c.styles
	if k < 0 {
		return c.Cells.Fit(s.Muted.Render(strings.Repeat("·", min(3, w))), w)
	}
	run, steps := c.runA, c.Cmp.StepsA
	if side == 1 {
		run, steps = c.RunB, c.Cmp.StepsB
	}
	st := steps[k]
	ev := run.Log.Event(st.Event)
	// A message's summary names its sender ("user: …").
	switch st.Kind {
	case compare.UserMessage:
		return c.Cells.Fit(s.SourceUser.Render(ev.Summary), w)
	case compare.AgentMessage:
		return c.Cells.Fit(s.SourceAgt.Render(ev.Summary), w)
	}
	mark := s.SourceEnv.Render(sanitize.Line(st.Tool))
	if st.Outcome == compare.Failed || st.Outcome == compare.Rejected {
		mark = s.Error.Render(s.Glyphs.Error) + " " + mark
	}
	return c.Cells.Fit(mark+" "+ev.Summary, w)
}

// rowNumber is a row's number, right-aligned to the widest on the
// screen.
func (c *Compare) rowNumber(i, digits int) string {
	return c.styles.Muted.Render(c.Cells.Pad(strconv.Itoa(i), digits, true)) + " "
}

// listWide is the aligned rows from top, both sides on each line.
func (c *Compare) listWide(w, n int) []string {
	if c.Cmp == nil {
		return nil
	}
	s := c.styles
	digits := len(strconv.Itoa(max(c.rowCount()-1, 0)))
	prefix := 2 + digits + 1 + 2
	// The rule between the sides lines up with the panes' above.
	colW := (w - 3) / 2
	aW, bW := max(colW-prefix, 1), max(w-3-colW, 1)
	var out []string
	for i := c.top; i < c.top+n && i < len(c.Cmp.Rows); i++ {
		row := c.Cmp.Rows[i]
		line := c.gutter(i) + c.rowNumber(i, digits) + c.opMark(row) + " " +
			c.cell(0, row.A, aW) + s.Muted.Render(" "+s.Glyphs.VRule+" ") + c.cell(1, row.B, bW)
		out = append(out, c.rowStyle(i, c.Cells.Fit(line, w)))
	}
	return out
}

// listSide is one side's column of the rows from top, for stacked sides.
func (c *Compare) listSide(side, w, n int) []string {
	if c.Cmp == nil {
		return nil
	}
	digits := len(strconv.Itoa(max(c.rowCount()-1, 0)))
	fixed := 2 + digits + 1 + 2 + 2
	name := "A"
	if side == 1 {
		name = "B"
	}
	var out []string
	for i := c.top; i < c.top+n && i < len(c.Cmp.Rows); i++ {
		row := c.Cmp.Rows[i]
		k := row.A
		if side == 1 {
			k = row.B
		}
		line := c.gutter(i) + c.rowNumber(i, digits) + c.opMark(row) + " " + c.styles.Bold.Render(name) + " " + c.cell(side, k, max(w-fixed, 1))
		out = append(out, c.rowStyle(i, c.Cells.Fit(line, w)))
	}
	for len(out) < n {
		out = append(out, "")
	}
	return out
}

// rowStyle marks the cursor's row.
func (c *Compare) rowStyle(i int, line string) string {
	if i == c.Cursor && !c.styles.NoColor {
		return c.styles.Selected.Render(line)
	}
	return line
}

// footer is a message, else the keys that fit.
func (c *Compare) footer(w int) string {
	s := c.styles
	if c.flash != "" {
		return c.Cells.Fit(s.Warn.Render(c.flash), w)
	}
	h := help.New()
	h.ShortSeparator = "  "
	h.Styles = help.Styles{Ellipsis: s.Muted, ShortKey: s.Key, ShortDesc: s.KeyDesc, ShortSeparator: s.Muted}
	keys := c.keys.ShortHelp()
	if c.detail != nil {
		keys = []key.Binding{tui.Shortly(c.keys.Down, "j/k", "scroll"), tui.Shortly(c.keys.Back, "esc", "close"), c.keys.Help, c.keys.Quit}
	}
	quit := tui.Shortly(keys[len(keys)-1], "q", "back")
	if c.AtRoot() {
		quit = tui.Shortly(quit, "q", "quit")
	}
	tail := h.ShortHelpView([]key.Binding{keys[len(keys)-2], quit})
	h.SetWidth(max(w-c.Cells.Width(tail)-2, 0))
	head := h.ShortHelpView(keys[:len(keys)-2])
	if head == "" {
		return c.Cells.Fit(tail, w)
	}
	return c.Cells.Fit(head+"  "+tail, w)
}
