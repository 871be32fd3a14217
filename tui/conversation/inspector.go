package conversation

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// inspectMode is what the inspector shows of its event.
type inspectMode int

const (
	modeRendered inspectMode = iota
	modeRaw
	modeDiff
)

// inspector shows one event in full: rendered for reading, as foldable raw
// JSON, or as the change it made to the derived state.
type inspector struct {
	open   bool
	index  int
	mode   inspectMode
	scroll int
	// line is the raw view's selected line (the one enter/z folds).
	line int
	// nowrap shows raw JSON lines whole, scrolled sideways by xoff cells,
	// instead of wrapped; it stays as set from one event to the next.
	nowrap bool
	xoff   int
	// data is built in a command when the inspector opens on an event
	// (folding changes it in place); nil until it comes.
	data *inspectData
	// seq tells the build for this opening from those for earlier ones;
	// build is that build until its view comes.
	seq   int
	build *inspectJob
	// hit is the current search match's line, plus one (0: none yet);
	// hitLast opens on the event's last match (it was reached by N).
	hit     int
	hitLast bool
}

// inspectData is what the inspector derived from its event.
type inspectData struct {
	rendered []string
	tree     *jsonNode
	treeErr  error
	diff     []reducer.Change
	// raw caches the raw view's rows for a width and fold generation:
	// wrapping a large event is not redone each frame.
	raw rawRows
	// md is a message's markdown, rendered in a command (markdown.go).
	md *markdownBlock
	// folds counts fold changes, which make the raw rows stale.
	folds int
	// links are the first lines of the rendered view when conversations
	// were forked or launched from the event (links.go).
	links []string
	// hits are the lines that hold the search's query
	// (inspector_search.go).
	hits hitCache
}

// rawRows is the raw JSON view laid out for one width and width model.
type rawRows struct {
	width, folds int
	cells        text.Cells
	wrap         bool
	text         []string
	nodes        []*jsonNode
	folds0       bool // set once built
}

// openInspector opens the inspector on the cursor's event. What it shows
// is built in a command (a large event takes longer than a frame: its
// typed decode, the JSON tree, the markdown); meanwhile it says
// "rendering…", and a build for an event or width no longer shown is
// dropped.
func (m *Conversation) openInspector() {
	if m.cursor < 0 {
		return
	}
	mode := m.insp.mode
	if !m.insp.open {
		mode = modeRendered
	}
	m.inspSeq++
	job := m.inspectJobFor(m.cursor)
	job.seq = m.inspSeq
	m.insp = inspector{open: true, index: m.cursor, mode: mode, nowrap: m.insp.nowrap, seq: m.inspSeq, build: &job}
}

// inspectJobFor takes what building the inspector's view of event i
// needs (the inspector and the pager build it alike).
func (m *Conversation) inspectJobFor(i int) inspectJob {
	job := inspectJob{
		to: m.Addr(), index: i,
		ev: m.Log.Event(i), styles: m.styles,
		diff: m.Log.Diff(i), links: m.linkLines(i),
		md:        m.markdownWant(),
		renderers: m.markdown,
	}
	job.resultIndex = -1
	if r, ok := m.Log.ResultOf(i); ok {
		// Read by the command: a result may be megabytes of output.
		job.log, job.resultIndex = m.Log, r
	}
	job.analysis = m.analysisOf(i)
	return job
}

// startInspect is the command that builds the inspector's view, once per
// opening; Update returns it beside its own.
func (m *Conversation) startInspect() tea.Cmd {
	b := m.insp.build
	if b == nil || b.started {
		return nil
	}
	b.started = true
	return b.run
}

// inspectJob is what building the inspector's view of an event needs,
// taken in Update: values the command reads while Update goes on.
type inspectJob struct {
	to          tui.Addr
	seq         int
	index       int
	ev          model.Event
	styles      theme.Styles
	log         *reducer.Log // where resultIndex is read
	resultIndex int          // the action's result (reducer.Log.ResultOf); -1: none
	analysis    *model.SecurityAnalysis
	diff        []reducer.Change
	links       []string
	md          markdownKey // the markdown's list width, style and width model
	renderers   *text.Markdown
	// started is set once Update has handed the build to the runtime.
	started bool
}

// inspectedMsg carries the inspector's view of an event, built by an
// inspectJob.
type inspectedMsg struct {
	tui.Addr
	seq  int
	data *inspectData
}

// run builds the view: the rendered event, the JSON tree, the markdown.
func (j inspectJob) run() tea.Msg {
	d := &inspectData{diff: j.diff, links: j.links}
	var result *model.Event
	if j.resultIndex >= 0 {
		r := j.log.Event(j.resultIndex)
		result = &r
	}
	d.rendered, d.md = renderEventWith(j.ev, j.index, j.styles, result, j.resultIndex, j.analysis, true)
	d.tree, d.treeErr = parseJSON(j.ev.Raw)
	if d.tree != nil {
		d.tree.foldDeep(0, 40)
	}
	if d.md != nil {
		d.md.width, d.md.style, d.md.cells, d.md.asked = j.md.width, j.md.style, j.md.cells, j.md
		d.md.lines = j.renderers.Render(d.md.text, markdownWidth(j.md.width), j.md.style, j.md.cells)
	}
	return inspectedMsg{Addr: j.to, seq: j.seq, data: d}
}

// inspected shows a built view when it is of the inspector still open on
// its event; the markdown is rendered again if the width or palette
// changed meanwhile.
func (m *Conversation) inspected(msg inspectedMsg) tea.Cmd {
	if !m.insp.open || msg.seq != m.insp.seq {
		return nil
	}
	m.insp.data, m.insp.build = msg.data, nil
	m.firstHit()
	return m.refreshMarkdown()
}

// lines returns the current mode's lines, wrapped (rendered, diff) or left
// whole (raw JSON, where the selected line matters) to width.
// raw is the event's raw bytes, shown when they are not valid JSON.
func (in inspector) lines(s theme.Styles, cells text.Cells, raw []byte, width int) ([]string, []*jsonNode) {
	d := in.data
	if d == nil {
		if !in.open {
			return nil, nil
		}
		return []string{s.Muted.Render("rendering…")}, nil
	}
	switch in.mode {
	case modeRaw:
		if d.tree == nil {
			msg := "raw bytes are not valid JSON"
			if d.treeErr != nil {
				msg += ": " + sanitize.Line(d.treeErr.Error())
			}
			return cells.WrapLines(append([]string{s.Error.Render(msg)}, strings.Split(sanitize.Text(string(raw)), "\n")...), width), nil
		}
		return d.rawView(s, cells, width-rawGutter, !in.nowrap)
	case modeDiff:
		out := []string{s.Bold.Render("What " + tui.Ordinal(in.index) + " changed in the derived state"), ""}
		if len(d.diff) == 0 {
			out = append(out, s.Muted.Render("nothing: this event changed no derived value"))
		}
		for _, c := range d.diff {
			field := sanitize.Line(c.Field)
			before, after := sanitize.Line(c.Before), sanitize.Line(c.After)
			if cells.Width(field+before+after)+8 <= width {
				out = append(out, s.Accent.Render(field)+": "+s.DiffDel.Render(before)+" "+s.Glyphs.Arrow+" "+s.DiffAdd.Render(after))
				continue
			}
			out = append(out, s.Accent.Render(field), s.DiffDel.Render("  - "+before), s.DiffAdd.Render("  + "+after))
		}
		return cells.WrapLines(out, width), nil
	}
	if len(d.links) > 0 {
		return append(cells.WrapLines(d.links, width), d.withMarkdown(cells, width)...), nil
	}
	return d.withMarkdown(cells, width), nil
}

// rawGutter is the raw view's left column: the selected line's marker.
const rawGutter = 2

// rawView returns the raw JSON's rows, each with the container it opens:
// wrapped to width (every row of a wrapped line folds its container), or
// whole when wrap is off. Built once per width, width model, wrap and
// fold change.
func (d *inspectData) rawView(s theme.Styles, cells text.Cells, width int, wrap bool) ([]string, []*jsonNode) {
	r := &d.raw
	if r.folds0 && r.width == width && r.cells == cells && r.wrap == wrap && r.folds == d.folds {
		return r.text, r.nodes
	}
	jl := d.tree.lines(s)
	*r = rawRows{width: width, cells: cells, wrap: wrap, folds: d.folds, folds0: true}
	for _, l := range jl {
		rows := []string{l.text}
		if wrap {
			rows = cells.WrapRows(rows, width, nestedIndent)
		}
		for _, row := range rows {
			r.text = append(r.text, row)
			r.nodes = append(r.nodes, l.node)
		}
	}
	return r.text, r.nodes
}

// inspectorPane draws the inspector: a title with the mode, then the
// lines of the event it was opened on.
type inspectorPane struct {
	box
	cells  text.Cells
	km     *tui.KeyMap
	styles *theme.Styles
	in     inspector
	raw    []byte
	// zoomed says the inspector has the whole width (Z), which its
	// title says with the key that gives the side panes back.
	zoomed bool
	// query is the search, whose matches the lines highlight; matched
	// says the search matched the event.
	query   string
	matched bool
}

// inspectorOf gives the inspector pane what it draws.
func (m *Conversation) inspectorOf(k *tui.KeyMap) *inspectorPane {
	return &inspectorPane{km: k, styles: &m.styles, cells: m.Cells, in: m.insp, raw: m.inspRaw(), zoomed: m.zoom,
		query: m.search.query, matched: m.inSearch(m.insp.index)}
}

// inspRaw is the raw bytes of the inspected event.
func (m *Conversation) inspRaw() []byte { return m.Log.Event(m.insp.index).Raw }

// inspLines is the inspector's lines at width.
func (m *Conversation) inspLines(width int) ([]string, []*jsonNode) {
	return m.insp.lines(m.styles, m.Cells, m.inspRaw(), width)
}

// ShortHelp implements Pane.
func (p *inspectorPane) ShortHelp() []key.Binding { return inspectorKeys(*p.km) }

// View implements Pane: exactly width×height cells.
func (p *inspectorPane) View() string {
	width, height := p.width, p.height
	if width <= 0 || height <= 0 {
		return ""
	}
	s, in := p.styles, p.in
	lines, nodes := in.lines(*s, p.cells, p.raw, width)
	body := height - 1
	scroll := clampScroll(in.scroll, len(lines), body)
	modes := []string{"event", "raw JSON", "state diff"}
	tabs := make([]string, len(modes))
	for k, name := range modes {
		if inspectMode(k) == in.mode {
			tabs[k] = s.PaneFocus.Render("[" + name + "]")
		} else {
			tabs[k] = s.Muted.Render(" " + name + " ")
		}
	}
	pos := ""
	if len(lines) > body && body > 0 {
		pos = s.Muted.Render(" " + Itoa(scroll+1) + "-" + Itoa(min(scroll+body, len(lines))) + "/" + Itoa(len(lines)))
	}
	hits := in.hitLines(lines, p.query, width)
	title := s.PaneFocus.Render("▌ Inspect "+tui.Ordinal(in.index)) + " " + strings.Join(tabs, "") + pos
	if h := p.hitLabel(hits); h != "" {
		title += s.Info.Render(h)
	}
	raw := in.mode == modeRaw && nodes != nil
	if raw {
		title += s.Muted.Render(in.rawLabel(p.cells, lines, width))
	}
	if p.zoomed {
		title += s.Muted.Render(" · zoomed (" + p.km.Zoom.Help().Key + ")")
	}
	out := []string{title}
	for k := scroll; k < min(scroll+body, len(lines)); k++ {
		line := lines[k]
		if _, hit := slices.BinarySearch(hits, k); hit {
			line = highlightLine(*s, p.query, line)
		}
		if raw && in.nowrap {
			line = sideways(p.cells, line, in.xoff, width-rawGutter)
		}
		if raw {
			// A gutter marks the selected line (the one enter/z folds),
			// visible without colours too.
			if k == in.line {
				line = s.Selected.Render(p.cells.Fit(s.Glyphs.Cursor+" "+ansi.Strip(line), width))
			} else {
				line = "  " + line
			}
		}
		out = append(out, line)
	}
	return p.cells.Block(strings.Join(out, "\n"), width, height)
}

// rawLabel says how the raw view treats long lines: wrapped, or whole
// and how far scrolled, and that some are longer than the screen.
func (in inspector) rawLabel(cells text.Cells, lines []string, width int) string {
	if !in.nowrap {
		return " · wrapped"
	}
	longest := 0
	for _, l := range lines {
		longest = max(longest, cells.Width(l))
	}
	if longest <= width-rawGutter {
		return " · unwrapped"
	}
	return " · unwrapped, col " + Itoa(in.xoff+1) + "/" + Itoa(longest)
}

// sideways shows the w cells of line from column x on, marking with ‹ and
// › that it goes on to the left or right, so nothing is cut silently.
func sideways(cells text.Cells, line string, x, w int) string {
	total := cells.Width(line)
	if w <= 2 || (x == 0 && total <= w) {
		return line
	}
	left, right := "", ""
	if x > 0 {
		left = "‹"
	}
	if total-x > w {
		right = "›"
	}
	inner := w - cells.Width(left) - cells.Width(right)
	// ansi's Cut drops the left cut under wcwidth: cut right, then left.
	part := cells.TruncateLeft(cells.Truncate(line, x+inner, ""), x, "")
	if strings.Contains(part, "\x1b[") {
		part += "\x1b[m" // a style cut open ends before the marker
	}
	return left + part + right
}

// scrollBy moves the inspector's view (or, in raw mode, its selected line)
// by n lines, keeping the selected line on screen.
func (m *Conversation) inspectScroll(n int) {
	r := m.layout().list
	body := max(r.h-1, 1)
	lines, _ := m.inspLines(r.w)
	total := len(lines)
	if m.insp.mode == modeRaw && m.insp.data != nil && m.insp.data.tree != nil {
		m.insp.line = max(0, min(m.insp.line+n, total-1))
		if m.insp.line < m.insp.scroll {
			m.insp.scroll = m.insp.line
		}
		if m.insp.line >= m.insp.scroll+body {
			m.insp.scroll = m.insp.line - body + 1
		}
		return
	}
	m.insp.scroll = clampScroll(m.insp.scroll+n, total, body)
}

// toggleFold folds or unfolds the container on the raw view's selected
// line.
func (m *Conversation) toggleFold() {
	if m.insp.mode != modeRaw {
		return
	}
	_, nodes := m.inspLines(m.layout().list.w)
	if m.insp.line < len(nodes) && nodes[m.insp.line] != nil {
		n := nodes[m.insp.line]
		n.folded = !n.folded
		m.insp.data.folds++
		// Keep the selection on the container's first row.
		for m.insp.line > 0 && nodes[m.insp.line-1] == n {
			m.insp.line--
		}
	}
}
