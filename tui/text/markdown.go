package text

import (
	"regexp"
	"strings"
	"sync"

	"charm.land/glamour/v2"
	gansi "charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// Markdown renders markdown (an agent's and a user's messages) with
// glamour, keeping a renderer per width and style: building one costs as
// much as rendering a short message. A renderer keeps state while it
// renders, so renders take turns under the lock; rendering a long text
// takes longer than a frame, so callers render in a command, never in a
// Bubble Tea Update. The zero value is ready to use.
type Markdown struct {
	mu    sync.Mutex
	byKey map[rendererKey]*glamour.TermRenderer
	// renders counts renderings, so a test can tell that a frame
	// renders none.
	renders int
}

// rendererKey is what a renderer is made for.
type rendererKey struct {
	width int
	style string
}

// markdownRendererCap bounds the renderers kept: dragging a window's edge
// passes through many widths, of which only the last matters.
const markdownRendererCap = 8

// Render renders sanitised text as markdown width cells wide, measured
// under cells, in a style: "dark", "light", "notty" (no colour, plain
// text) or "mono" (no colour, emphasis in bold and italics). Glamour cuts
// a line at the edge of an inline element (`sync.|Mutex`), so text without
// a table (which needs the width to lay out) is rendered unwrapped and
// wrapped here between words, list items under their first word. A
// renderer error leaves the text as it is: it is still shown.
func (r *Markdown) Render(text string, width int, style string, cells Cells) []string {
	if hasTable(text) {
		return r.renderAt(text, width, style)
	}
	lines := r.renderAt(text, markdownUnwrapped, style)
	for i, l := range lines {
		lines[i] = trimRightBlank(l)
	}
	return cells.WrapRows(lines, width, cells.listIndent)
}

// Renders is how many renderings were made so far.
func (r *Markdown) Renders() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.renders
}

// renderAt renders text with glamour wrapping at width.
func (r *Markdown) renderAt(text string, width int, style string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.renders++
	k := rendererKey{width, style}
	tr, ok := r.byKey[k]
	if !ok {
		var err error
		tr, err = glamour.NewTermRenderer(glamour.WithStyles(markdownConfig(style)), glamour.WithWordWrap(width))
		if err != nil {
			return strings.Split(text, "\n")
		}
		if r.byKey == nil || len(r.byKey) >= markdownRendererCap {
			r.byKey = map[rendererKey]*glamour.TermRenderer{}
		}
		r.byKey[k] = tr
	}
	out, err := tr.Render(text)
	if err != nil {
		return strings.Split(text, "\n")
	}
	return strings.Split(strings.Trim(out, "\n"), "\n")
}

// markdownConfig is the glamour style of a name, without the document
// margin (the inspector has its own) or blank lines around the document.
func markdownConfig(style string) gansi.StyleConfig {
	cfg := styles.LightStyleConfig
	switch style {
	case "notty":
		cfg = styles.NoTTYStyleConfig
	case "dark":
		cfg = styles.DarkStyleConfig
	}
	switch style {
	case "notty", "mono":
		// Without colour, emphasis is the text itself (in bold and italics
		// where attributes are drawn): the asterisks the notty style keeps
		// around it read as noise in an agent's summary.
		cfg = styles.NoTTYStyleConfig
		cfg.Strong, cfg.Emph = gansi.StylePrimitive{}, gansi.StylePrimitive{}
		if style == "mono" {
			yes := true
			cfg.Strong.Bold, cfg.Emph.Italic = &yes, &yes
		}
	}
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix, cfg.Document.BlockSuffix = "", ""
	return cfg
}

// markdownUnwrapped is the width markdown is rendered to before it is
// wrapped between words.
const markdownUnwrapped = 4096

// tableRow matches a markdown table's row.
var tableRow = regexp.MustCompile(`(?m)^\s*\|.*\|\s*$`)

// hasTable reports whether markdown text holds a table.
func hasTable(text string) bool { return tableRow.MatchString(text) }

// trailingBlank matches the spaces (and styles) a renderer pads a line
// with to its width.
var trailingBlank = regexp.MustCompile(`(?:[ ]|\x1b\[[0-9;:]*m)+$`)

// trimRightBlank drops a line's padding, closing any style it leaves open.
func trimRightBlank(l string) string {
	loc := trailingBlank.FindStringIndex(l)
	if loc == nil {
		return l
	}
	if strings.Contains(l[loc[0]:], "\x1b[") {
		return l[:loc[0]] + "\x1b[m"
	}
	return l[:loc[0]]
}

// listMarker matches the start of a list item: a bullet or a number.
var listMarker = regexp.MustCompile(`^\s*(?:[-*•+]|\d+[.)])\s+`)

// listIndent puts the rows of a wrapped list item under its first word,
// and those of other lines under their first row.
func (c Cells) listIndent(plain string) int {
	if m := listMarker.FindString(plain); m != "" {
		return c.Width(m)
	}
	return ownIndent(plain)
}
