package conversation

import (
	"strings"

	tea "charm.land/bubbletea/v2"

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

// inspectorID names the inspector on the conversation's overlay.
const inspectorID = "inspector"

// inspector shows one event in full: rendered for reading, as foldable raw
// JSON, or as the change it made to the derived state. It is a dialog over
// the event list (tui/dialog): it owns its state, keys and commands, and
// learns what it needs of its screen from what it was opened with and
// from inspectEnv, which the screen tells it before each message and
// frame. Keys it does not use (moving between events, answering,
// copying) it passes to the list, which moves it with show.
type inspector struct {
	// log is where the inspected event's raw bytes are read.
	log *reducer.Log
	// env is what the screen last told it (inspectEnv).
	env inspectEnv
	box
	index  int
	mode   inspectMode
	scroll int
	// line is the raw view's selected line (the one enter/z folds).
	line int
	// nowrap shows raw JSON lines whole, scrolled sideways by xoff cells,
	// instead of wrapped; it stays as set from one event to the next.
	nowrap bool
	xoff   int
	// data is built in a command when the inspector is shown an event
	// (folding changes it in place); nil until it comes.
	data *inspectData
	// build is the build of the event shown until its view comes: a
	// view built for another event (or an earlier inspector) is dropped.
	build *inspectJob
	// hit is the current search match's line, plus one (0: none yet);
	// hitLast opens on the event's last match (it was reached by N).
	hit     int
	hitLast bool
}

// inspectEnv is what the inspector reads of its screen: the bindings as
// they apply now, the palette and width model, the list's place (its
// keys page by it, the wheel scrolls over it), the search, the zoom, and
// what its markdown is rendered for and by. The screen sets it before
// each message and each frame, so the inspector never reads the screen.
type inspectEnv struct {
	keys   tui.KeyMap
	styles theme.Styles
	cells  text.Cells
	area   rect
	// query is the search, whose matches the lines highlight; matches
	// are the events it matched, in order.
	query   string
	matches []int
	// zoomed says the inspector has the whole width (Z), which its
	// title says with the key that gives the side panes back.
	zoomed bool
	// md is what the markdown is rendered for now, renderers what
	// renders it, and to the address of the messages its commands send.
	md        markdownKey
	renderers *text.Markdown
	to        tui.Addr
}

// newInspector is an inspector on log, not yet shown an event; nowrap
// is the raw view's wrapping as the user left it.
func newInspector(log *reducer.Log, nowrap bool) *inspector {
	return &inspector{log: log, nowrap: nowrap}
}

// ID implements dialog.Dialog.
func (in *inspector) ID() string { return inspectorID }

// show puts the inspector on the event job builds, keeping its mode and
// wrapping; what it shows comes when the build's command returns (start),
// meanwhile it says "rendering…".
func (in *inspector) show(job *inspectJob) {
	*in = inspector{log: in.log, env: in.env, box: in.box, mode: in.mode, nowrap: in.nowrap, index: job.index, build: job}
}

// fromLastHit has the event being built open on its last search match,
// not its first: it was reached by N.
func (in *inspector) fromLastHit() { in.hitLast = true }

// raw is the raw bytes of the inspected event.
func (in *inspector) raw() []byte { return in.log.Event(in.index).Raw }

// linesAt is the inspector's lines at width, as the screen draws them.
func (in *inspector) linesAt(width int) ([]string, []*jsonNode) {
	return in.lines(in.env.styles, in.env.cells, in.raw(), width)
}

// start is the command that builds the view of the event shown, once per
// event; the screen's Update returns it beside its own.
func (in *inspector) start() tea.Cmd {
	b := in.build
	if b == nil || b.started {
		return nil
	}
	b.started = true
	return b.run
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

// inspectJob is what building the inspector's view of an event needs,
// taken in Update: values the command reads while Update goes on.
type inspectJob struct {
	to          tui.Addr
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

// inspectedMsg carries the inspector's view of an event, built by job.
type inspectedMsg struct {
	tui.Addr
	job  *inspectJob
	data *inspectData
}

// run builds the view: the rendered event, the JSON tree, the markdown.
func (j *inspectJob) run() tea.Msg {
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
	return inspectedMsg{Addr: j.to, job: j, data: d}
}

// inspected shows a built view when it is of the event still shown; the
// markdown is rendered again if the width or palette changed meanwhile.
func (in *inspector) inspected(msg inspectedMsg) tea.Cmd {
	if msg.job != in.build {
		return nil
	}
	in.data, in.build = msg.data, nil
	in.firstHit()
	return in.refreshMarkdown(in.env.md, in.env.renderers, in.env.to)
}

// lines returns the current mode's lines, wrapped (rendered, diff) or left
// whole (raw JSON, where the selected line matters) to width.
// raw is the event's raw bytes, shown when they are not valid JSON.
func (in *inspector) lines(s theme.Styles, cells text.Cells, raw []byte, width int) ([]string, []*jsonNode) {
	d := in.data
	if d == nil {
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
