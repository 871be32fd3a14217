package tui

import (
	"strconv"
	"strings"

	"ohwatch/format"
	"ohwatch/model"
)

// browseColumn is one column of the browser's table.
type browseColumn struct {
	name  string
	width int
	right bool // numbers align right
	cell  func(r BrowseRow) string
}

// browseIDWidth is how much of a conversation id the table shows: enough
// to tell ids apart and to type into --conversation's completion.
const browseIDWidth = 8

// browseWideID is the screen width from which the table has an id column.
const browseWideID = 100

// browseWideStatus is the screen width from which the status column shows
// the whole verdict, with its provenance.
const browseWideStatus = 130

// columns returns the table's fixed columns for the screen width; the
// title takes what is left.
func (b browser) columns() []browseColumn {
	status := browseColumn{name: "STATUS", width: 12, cell: func(r BrowseRow) string { return orDash(r.Status) }}
	if b.width >= browseWideStatus {
		status = browseColumn{name: "STATUS", width: 32, cell: func(r BrowseRow) string {
			if r.Verdict != "" {
				return r.Verdict
			}
			return orDash(r.Status)
		}}
	}
	cols := []browseColumn{
		status,
		{name: "EVENTS", width: 7, right: true, cell: func(r BrowseRow) string {
			if r.Events < 0 {
				return "?"
			}
			return format.Exact(int64(r.Events))
		}},
		{name: "COST", width: 9, right: true, cell: func(r BrowseRow) string { return orDash(r.Cost) }},
		{name: "LAST ACTIVITY", width: 16, cell: func(r BrowseRow) string {
			if r.LastActivity.IsZero() {
				return "-"
			}
			return r.LastActivity.UTC().Format("2006-01-02 15:04")
		}},
	}
	if b.width >= browseWideID {
		cols = append(cols, browseColumn{name: "ID", width: browseIDWidth, cell: func(r BrowseRow) string { return orDash(r.ID) }})
	}
	return cols
}

// orDash prints "-" for an empty value.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// render draws the browser: a heading, the column names, the rows of the
// window and the footer, exactly width×height cells.
func (b browser) render() string {
	w, h := max(b.width, 1), max(b.height, 1)
	s := b.styles
	sep := s.Muted.Render(s.Glyphs.Separator)
	where := model.SanitizeLine(b.opts.Where)
	head := s.Title.Render("ohwatch") + sep + s.Bold.Render("conversations")
	if where != "" {
		head += sep + s.Muted.Render(where)
	}
	head += sep + strconv.Itoa(len(b.shown)) + " of " + strconv.Itoa(len(b.opts.Rows)) +
		sep + s.Muted.Render("sorted by ") + b.sortBy.String()
	if b.filter != "" && !b.filtering {
		head += sep + s.Muted.Render("filter ") + s.Accent.Render("“"+b.filter+"”")
	}
	cols := b.columns()
	titleW := w - 2
	names := make([]string, 0, len(cols)+1)
	for _, c := range cols {
		names = append(names, pad(c.name, c.width, c.right))
		titleW -= c.width + 1
	}
	names = append(names, "TITLE")
	lines := []string{fitLine(head, w), fitLine(s.PaneTitle.Render("  "+strings.Join(names, " ")), w)}
	body := b.listHeight()
	if len(b.shown) == 0 {
		msg := "no conversations"
		if b.filter != "" {
			msg = "no conversation matches “" + b.filter + "”"
		}
		lines = append(lines, fitLine(s.Muted.Render("  "+msg), w))
	}
	for k := b.top; k < min(b.top+body, len(b.shown)); k++ {
		lines = append(lines, b.row(b.opts.Rows[b.shown[k]], cols, max(titleW, 0), w, k == b.cursor))
	}
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	lines = append(lines[:min(len(lines), h-1)], b.footer())
	return fit(strings.Join(lines, "\n"), w, h)
}

// row draws one conversation; the selected one is drawn in one style.
func (b browser) row(r BrowseRow, cols []browseColumn, titleW, w int, selected bool) string {
	s := b.styles
	cells := make([]string, 0, len(cols)+1)
	for _, c := range cols {
		text := pad(truncate(model.SanitizeLine(c.cell(r)), c.width), c.width, c.right)
		if !selected && c.name == "STATUS" {
			text = s.Status(r.Status).Render(text)
		}
		cells = append(cells, text)
	}
	title := model.SanitizeLine(r.Title)
	if title == "" {
		title = s.Muted.Render("(untitled)")
	}
	cells = append(cells, truncate(title, titleW))
	line := strings.Join(cells, " ")
	if selected {
		return s.Selected.Render(fitLine(s.Glyphs.Cursor+" "+line, w))
	}
	return fitLine("  "+line, w)
}

// footer is the filter line while it is open, else the keys.
func (b browser) footer() string {
	s := b.styles
	if b.filtering {
		return s.Prompt.Render("/") + inputField(b.in, b.width-1) + s.Muted.Render("  enter keep · esc clear")
	}
	action := "choose"
	if len(b.shown) > 0 && b.opts.Rows[b.shown[b.cursor]].Path != "" {
		action = "replay"
	}
	keys := [][2]string{{"enter", action}, {"j/k", "move"}, {"g/G", "first/last"}, {"/", "filter"}, {"s", "sort"}, {"q", "quit"}}
	if b.filter != "" {
		keys[len(keys)-1] = [2]string{"esc", "clear filter"}
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = s.Key.Render(k[0]) + " " + s.KeyDesc.Render(k[1])
	}
	return strings.Join(parts, "  ")
}

// pad makes s exactly w cells, aligned left or right.
func pad(s string, w int, right bool) string {
	if right {
		s = truncate(s, w)
		return strings.Repeat(" ", max(w-textWidth(s), 0)) + s
	}
	return fitLine(s, w)
}
