package conversation

import (
	"strings"

	"ohwatch/theme"
	"ohwatch/tui/text"
)

// banner lines sit under the header, across the screen: first a
// connection problem (connection.go), then a status that needs the user
// (attention.go). Each wraps onto at most bannerMaxLines lines, so the
// cause fits at 80 columns instead of being cut.
const bannerMaxLines = 2

// banner draws the banners: a connection problem, then a status that
// needs the user.
type banner struct {
	box
	cells text.Cells
	noKeys
	styles *theme.Styles
	// conn is the connection problem's text, attention the status's and
	// status the status it is about; "" when there is none.
	conn, attention, status string
	// guard is the latest guard trip and what was done; "" for none.
	guard string
}

// bannerOf gives the banners what they say.
func (m *Conversation) bannerOf() *banner {
	return &banner{styles: &m.styles, cells: m.Cells, conn: m.connProblem(), attention: m.attentionText(), status: m.attn.status, guard: m.guardBanner()}
}

// View implements Pane: the first lines of the banners, exactly
// width×height cells.
func (b *banner) View() string {
	if b.height <= 0 {
		return ""
	}
	return b.cells.Block(strings.Join(b.lines(b.width), "\n"), b.width, b.height)
}

// lines renders the banners for width; nil when there are none.
func (b *banner) lines(width int) []string {
	if width <= 0 {
		return nil
	}
	s := b.styles
	var out []string
	add := func(text, glyph string, style func(...string) string) {
		if text == "" {
			return
		}
		wrapped := strings.Split(b.cells.Wordwrap(glyph+" "+text, width, ""), "\n")
		if len(wrapped) > bannerMaxLines {
			wrapped = wrapped[:bannerMaxLines]
			wrapped[bannerMaxLines-1] += "…"
		}
		for _, line := range wrapped {
			out = append(out, b.cells.Fit(style(line), width))
		}
	}
	if b.conn != "" {
		add(b.conn, s.Glyphs.Error, s.Error.Render)
	}
	if b.attention != "" {
		add(b.attention, "●", s.Status(b.status).Render)
	}
	if b.guard != "" {
		add(b.guard, s.Glyphs.Error, s.Warn.Render)
	}
	return out
}

// bannerHeight is how many lines the banners take at the current size: on
// a screen too small for them they give way (the header still names the
// connection state).
func (m *Conversation) bannerHeight(width, height int) int {
	if height < 12 {
		return 0
	}
	return min(len(m.bannerOf().lines(width)), height/4)
}
