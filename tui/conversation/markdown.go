package conversation

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/tui"
	"ohwatch/tui/text"
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
	case m.colour.Mode.Dark(m.colour.BgKnown, m.colour.BgDark):
		return "dark"
	}
	return "light"
}

// markdownKey is what a rendering is made for: the list's width, the
// style and the width model it is wrapped under.
type markdownKey struct {
	width int
	style string
	cells text.Cells
}

// markdownWant is what the open inspector's markdown is rendered for now.
func (m *Conversation) markdownWant() markdownKey {
	return markdownKey{m.layout().list.w, m.markdownStyle(), m.Cells}
}

// markdownBlock is an event's markdown text and where its rendering goes
// among the rendered lines, with the rendering for one width and style.
type markdownBlock struct {
	text  string // sanitised
	at    int    // index in the rendered lines where it is inserted
	width int
	style string
	cells text.Cells
	lines []string
	// asked is the width and style of the rendering a command is making.
	asked markdownKey
}

// markdownRenderedMsg carries a rendering of block md made in a command.
type markdownRenderedMsg struct {
	tui.Addr
	md    *markdownBlock
	key   markdownKey
	lines []string
}

// markdownWidth is the width the inspector's markdown is rendered to for
// a list pane width cells wide.
func markdownWidth(width int) int { return max(width-1, 10) }

// refreshMarkdown asks for the markdown to be rendered for want (the
// width, palette and width model now), unless it is or is being rendered
// so; renderers render it and to addresses the message.
func (in *inspector) refreshMarkdown(want markdownKey, renderers *text.Markdown, to tui.Addr) tea.Cmd {
	if in.data == nil || in.data.md == nil {
		return nil
	}
	md := in.data.md
	if (md.lines != nil && md.width == want.width && md.style == want.style && md.cells == want.cells) || md.asked == want {
		return nil
	}
	md.asked = want
	src := md.text
	return func() tea.Msg {
		lines := renderers.Render(src, markdownWidth(want.width), want.style, want.cells)
		return markdownRenderedMsg{Addr: to, md: md, key: want, lines: lines}
	}
}

// markdownRendered keeps a rendering when it is of the block still shown,
// for the width and palette still current; any other is stale.
func (in *inspector) markdownRendered(msg markdownRenderedMsg) {
	if in.data == nil || in.data.md != msg.md {
		return
	}
	if msg.key != in.env.md {
		return
	}
	msg.md.width, msg.md.style, msg.md.cells, msg.md.lines = msg.key.width, msg.key.style, msg.key.cells, msg.lines
}

// withMarkdown returns the rendered lines with the markdown block put in
// place: its rendering when it was made for this width and width model,
// else the plain text (wrapped like the rest), so a frame never renders
// markdown.
func (d *inspectData) withMarkdown(cells text.Cells, width int) []string {
	md := d.md
	if md == nil {
		return cells.WrapLines(d.rendered, width)
	}
	at := min(md.at, len(d.rendered))
	out := cells.WrapLines(d.rendered[:at], width)
	if md.lines != nil && md.width == width && md.cells == cells {
		out = append(out, md.lines...)
	} else {
		out = append(out, cells.WrapLines(strings.Split(md.text, "\n"), width)...)
	}
	return append(out, cells.WrapLines(d.rendered[at:], width)...)
}
