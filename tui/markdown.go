package tui

import (
	"strings"
	"sync/atomic"

	"charm.land/glamour/v2"
	gansi "charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// Messages (the user's and the assistant's) are markdown: the inspector
// renders them with glamour, in a style that follows the app's palette
// (dark, light, or no colour). Rendering is costly, so it happens in
// Update (when the inspector opens, the screen is resized or the palette
// changes) and the lines are kept; View only reads them.

// markdownRenders counts renderings, so a test can tell that a frame
// renders none.
var markdownRenders atomic.Int64

// markdownStyle names the glamour style for the current palette.
func (m *Conversation) markdownStyle() string {
	switch {
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
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix, cfg.Document.BlockSuffix = "", ""
	return cfg
}

// renderMarkdown renders sanitised text as markdown width cells wide.
// A renderer error leaves the text as it is: it is still shown.
func renderMarkdown(text string, width int, style string) []string {
	markdownRenders.Add(1)
	r, err := glamour.NewTermRenderer(glamour.WithStyles(markdownConfig(style)), glamour.WithWordWrap(width))
	if err == nil {
		var out string
		if out, err = r.Render(text); err == nil {
			return strings.Split(strings.Trim(out, "\n"), "\n")
		}
	}
	return strings.Split(text, "\n")
}

// markdownBlock is an event's markdown text and where its rendering goes
// among the rendered lines, with the rendering for one width and style.
type markdownBlock struct {
	text  string // sanitised
	at    int    // index in the rendered lines where it is inserted
	width int
	style string
	lines []string
}

// refreshMarkdown renders the open inspector's markdown for the current
// width and palette, unless it already is. It runs in Update.
func (m *Conversation) refreshMarkdown() {
	if !m.insp.open || m.insp.data == nil || m.insp.data.md == nil {
		return
	}
	md := m.insp.data.md
	width, style := m.layout().list.w, m.markdownStyle()
	if md.lines != nil && md.width == width && md.style == style {
		return
	}
	md.width, md.style, md.lines = width, style, renderMarkdown(md.text, max(width-1, 10), style)
	return
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
