package conversation

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// The key reference (?) is a tui.Help dialog on the view's overlay; what
// it says is laid out here.

// helpView is the full key reference, generated from the key map so it can
// never disagree with what the keys do.
type helpView struct {
	cells  text.Cells
	keys   tui.KeyMap
	styles *theme.Styles
}

// groups returns the reference as one block of lines per group (its title,
// then a line per binding), and the width a column needs.
func (h helpView) groups() ([][]string, int) {
	s := h.styles
	keyW := 0
	for _, g := range h.keys.HelpGroups() {
		for _, b := range g.Bindings {
			keyW = max(keyW, h.cells.Width(b.Help().Key))
		}
	}
	for _, g := range legend(s.Glyphs) {
		for _, e := range g.entries {
			keyW = max(keyW, h.cells.Width(e[0]))
		}
	}
	colW := 0
	var out [][]string
	for _, g := range h.keys.HelpGroups() {
		block := []string{s.PaneFocus.Render(g.Title)}
		for _, b := range g.Bindings {
			if !b.Enabled() {
				continue // not on this view (play while live)
			}
			hp := b.Help()
			colW = max(colW, keyW+2+h.cells.Width(hp.Desc))
			block = append(block, s.Key.Render(h.cells.Fit(hp.Key, keyW))+"  "+s.KeyDesc.Render(hp.Desc))
		}
		if len(block) > 1 {
			out = append(out, block)
		}
	}
	for _, g := range legend(s.Glyphs) {
		block := []string{s.PaneFocus.Render(g.title)}
		for _, e := range g.entries {
			colW = max(colW, keyW+2+h.cells.Width(e[1]))
			block = append(block, s.Key.Render(h.cells.Fit(e[0], keyW))+"  "+s.KeyDesc.Render(e[1]))
		}
		out = append(out, block)
	}
	return out, colW + 3
}

// legendGroup is one titled column of the help screen's legend: a glyph
// and what it means.
type legendGroup struct {
	title   string
	entries [][2]string
}

// legend explains every glyph the screen draws, from the glyph set itself
// so the two cannot disagree.
func legend(g theme.Glyphs) []legendGroup {
	return []legendGroup{
		{"Pane numbers", [][2]string{
			{"1", "Events"}, {"2", "Status timeline"}, {"3", "Metrics"}, {"4", "Tasks"}, {"5", "Pending"},
			{"▌", "the focused pane"},
		}},
		{"Scrubber", [][2]string{
			{g.ScrubHead, "the cursor"}, {g.ScrubFill, "before the cursor"}, {g.ScrubEmpty, "after the cursor"},
			{g.MarkError, "an error"}, {g.MarkBook, "a bookmark"}, {g.MarkStatus, "a status change"},
			{g.MarkUser, "a user turn"}, {g.MarkMatch, "a search match"},
		}},
		{"Rows", [][2]string{
			{g.Cursor, "the selected event"}, {g.Error, "an error"}, {g.MarkBook, "bookmarked"},
			{g.Paired + "#12", "answers #12, after"}, {g.Forgotten, "condensed out of view"},
			{timeBackwards + "+2:01", "earlier than the row above"},
			{detailMark, "search matched in details"},
		}},
		{"Header", [][2]string{
			{g.Live + " LIVE", "following the newest"}, {g.Pinned, "pinned in the past"}, {g.Playing, "replay playing"},
			{g.Confirmed, "finished, final"}, {"?", "finished? may change"},
			{"ends …", "how a recording ends (cursor before it)"},
			{"iter", "LLM steps since the last user message"},
			{"steps", "LLM steps in the whole conversation"},
		}},
		{"Tasks, JSON", [][2]string{
			{g.TaskTodo, "to do"}, {g.TaskDoing, "in progress"}, {g.TaskDone, "done"},
			{g.Folded, "folded"}, {g.Unfolded, "unfolded"},
		}},
	}
}

// pack lays the groups out in columns at most height lines tall, a group
// kept whole in one column unless it alone is taller; groups in a column
// are separated by a blank line.
func pack(groups [][]string, height int) [][]string {
	var cols [][]string
	var cur []string
	for _, g := range groups {
		need := len(g)
		if len(cur) > 0 {
			need++ // the blank line before it
		}
		if len(cur) > 0 && len(cur)+need > height {
			cols, cur = append(cols, cur), nil
		}
		if len(cur) > 0 {
			cur = append(cur, "")
		}
		for _, line := range g {
			if len(cur) >= height {
				cols, cur = append(cols, cur), nil
			}
			cur = append(cur, line)
		}
	}
	if len(cur) > 0 {
		cols = append(cols, cur)
	}
	return cols
}

// layout returns the reference's columns for a width×rows area: as short
// as the columns that fit side by side allow, and no shorter than rows
// when everything fits, so the reference never scrolls when it need not.
func (h helpView) layout(width, rows int) ([][]string, int) {
	groups, colW := h.groups()
	if colW > width/2 && width/2 >= helpMinColumn {
		// A few long descriptions would leave one 130-line column on a
		// narrow screen: two columns, those few cut short ("…"), read
		// better.
		colW = width / 2
	}
	fit := max(1, width/max(colW, 1))
	total := 0
	for _, g := range groups {
		total += len(g) + 1
	}
	height := max(rows, 1)
	if len(pack(groups, height)) > fit {
		// It does not fit: find the shortest columns that do, and scroll.
		for height = max(total/fit, 1); len(pack(groups, height)) > fit; height++ {
		}
	}
	return pack(groups, height), colW
}

// helpMinColumn is the narrowest a help column is made to fit two side
// by side: a key and a description of some twenty cells.
const helpMinColumn = 32

// lines is the whole reference laid out for a width×rows area, the
// columns side by side, unscrolled: what the help pager reads.
func (h helpView) lines(width, rows int) []string {
	cols, colW := h.layout(width, rows)
	tallest := 0
	for _, c := range cols {
		tallest = max(tallest, len(c))
	}
	blocks := make([]string, 0, len(cols))
	for _, c := range cols {
		blocks = append(blocks, h.cells.Block(strings.Join(c, "\n"), min(colW, width), tallest))
	}
	return strings.Split(joinColumns("", blocks...), "\n")
}

// openHelp opens the key reference over the view.
func (m *Conversation) openHelp() {
	m.overlay.Open(tui.NewHelp(m.helpConfig(m.keys)))
	m.fitDialogs(m.activeKeys(m.state()))
}

// helpConfig is what the key reference says now: the keys as they apply
// (play and speed only once nothing is live), read with the view's moves;
// k is the key map as it applies now. In the compact layout it takes the
// body, the summary's room too (helpArea).
func (m *Conversation) helpConfig(k tui.KeyMap) tui.HelpConfig {
	keys := tui.PagerKeys{Down: k.Down, Up: k.Up, PageDown: tui.JoinBindings(k.PageDown, k.HalfDown), PageUp: tui.JoinBindings(k.PageUp, k.HalfUp),
		Top: k.Top, Bottom: m.keys.Bottom, Close: []key.Binding{k.Back, k.Help, k.Quit}}
	return tui.HelpConfig{Title: m.styles.PaneFocus.Render("▌ Keys"), Lines: m.helpOf().lines, Keys: keys, Short: helpKeys(k),
		Styles: &m.styles, Cells: m.Cells, Place: dialog.Body}
}
