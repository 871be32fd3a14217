package tui

import (
	"regexp"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
	gansi "charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"github.com/charmbracelet/colorprofile"
)

// Messages (the user's and the assistant's) are markdown: the inspector
// renders them with glamour, in a style that follows the app's palette
// (dark, light, or no colour). Rendering a long message takes longer than
// a frame, so it runs in a command (when the inspector opens, the screen
// is resized or the palette changes) and the lines are kept; View only
// reads them, and shows the plain text until they come.

// markdownStyle names the glamour style for the current palette.
func (m *Conversation) markdownStyle() string {
	switch {
	case m.styles.NoColor && m.styles.Profile == colorprofile.ASCII:
		return "mono" // NO_COLOR: emphasis in bold and italics
	case m.styles.NoColor:
		return "notty"
	case m.colour.mode.Dark(m.colour.bgKnown, m.colour.bgDark):
		return "dark"
	}
	return "light"
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

// markdownRenderers keeps a glamour renderer per width and style: building
// one costs as much as rendering a short message. A renderer keeps state
// while it renders, so renders take turns under the lock; they run in
// commands, never in Update.
type markdownRenderers struct {
	mu    sync.Mutex
	byKey map[markdownKey]*glamour.TermRenderer
	// renders counts renderings, so a test can tell that a frame
	// renders none.
	renders int
}

// markdownKey is what a renderer is made for.
type markdownKey struct {
	width int
	style string
}

// markdownRendererCap bounds the renderers kept: dragging a window's edge
// passes through many widths, of which only the last matters.
const markdownRendererCap = 8

// render renders sanitised text as markdown width cells wide. Glamour
// cuts a line at the edge of an inline element (`sync.|Mutex`), so text
// without a table (which needs the width to lay out) is rendered unwrapped
// and wrapped here between words, list items under their first word. A
// renderer error leaves the text as it is: it is still shown.
func (c *markdownRenderers) render(text string, width int, style string) []string {
	if hasTable(text) {
		return c.renderAt(text, width, style)
	}
	lines := c.renderAt(text, markdownUnwrapped, style)
	for i, l := range lines {
		lines[i] = trimRightBlank(l)
	}
	return wrapRows(lines, width, listIndent)
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
func listIndent(plain string) int {
	if m := listMarker.FindString(plain); m != "" {
		return textWidth(m)
	}
	return ownIndent(plain)
}

// renderAt renders text with glamour wrapping at width.
func (c *markdownRenderers) renderAt(text string, width int, style string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.renders++
	k := markdownKey{width, style}
	r, ok := c.byKey[k]
	if !ok {
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStyles(markdownConfig(style)), glamour.WithWordWrap(width))
		if err != nil {
			return strings.Split(text, "\n")
		}
		if c.byKey == nil || len(c.byKey) >= markdownRendererCap {
			c.byKey = map[markdownKey]*glamour.TermRenderer{}
		}
		c.byKey[k] = r
	}
	out, err := r.Render(text)
	if err != nil {
		return strings.Split(text, "\n")
	}
	return strings.Split(strings.Trim(out, "\n"), "\n")
}

// count is how many renderings were made so far.
func (c *markdownRenderers) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.renders
}

// markdownBlock is an event's markdown text and where its rendering goes
// among the rendered lines, with the rendering for one width and style.
type markdownBlock struct {
	text  string // sanitised
	at    int    // index in the rendered lines where it is inserted
	width int
	style string
	lines []string
	// asked is the width and style of the rendering a command is making.
	asked markdownKey
}

// markdownRenderedMsg carries a rendering of block md made in a command.
type markdownRenderedMsg struct {
	addr
	md    *markdownBlock
	key   markdownKey
	lines []string
}

// markdownWidth is the width the inspector's markdown is rendered to for
// a list pane width cells wide.
func markdownWidth(width int) int { return max(width-1, 10) }

// refreshMarkdown asks for the open inspector's markdown to be rendered
// for the current width and palette, unless it is or is being rendered so.
func (m *Conversation) refreshMarkdown() tea.Cmd {
	if !m.insp.open || m.insp.data == nil || m.insp.data.md == nil {
		return nil
	}
	md := m.insp.data.md
	want := markdownKey{m.layout().list.w, m.markdownStyle()}
	if (md.lines != nil && md.width == want.width && md.style == want.style) || md.asked == want {
		return nil
	}
	md.asked = want
	text, renderers, to := md.text, m.markdown, m.addr()
	return func() tea.Msg {
		lines := renderers.render(text, markdownWidth(want.width), want.style)
		return markdownRenderedMsg{addr: to, md: md, key: want, lines: lines}
	}
}

// markdownRendered keeps a rendering when it is of the block still shown,
// for the width and palette still current; any other is stale.
func (m *Conversation) markdownRendered(msg markdownRenderedMsg) {
	if !m.insp.open || m.insp.data == nil || m.insp.data.md != msg.md {
		return
	}
	if msg.key != (markdownKey{m.layout().list.w, m.markdownStyle()}) {
		return
	}
	msg.md.width, msg.md.style, msg.md.lines = msg.key.width, msg.key.style, msg.lines
}

// withMarkdown returns the rendered lines with the markdown block put in
// place: its rendering when it was made for this width, else the plain
// text (wrapped like the rest), so a frame never renders markdown.
func (d *inspectData) withMarkdown(width int) []string {
	md := d.md
	if md == nil {
		return wrapLines(d.rendered, width)
	}
	at := min(md.at, len(d.rendered))
	out := wrapLines(d.rendered[:at], width)
	if md.lines != nil && md.width == width {
		out = append(out, md.lines...)
	} else {
		out = append(out, wrapLines(strings.Split(md.text, "\n"), width)...)
	}
	return append(out, wrapLines(d.rendered[at:], width)...)
}
