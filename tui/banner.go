package tui

import (
	"strings"
)

// banner lines sit under the header, across the screen: first a
// connection problem (connection.go), then a status that needs the user
// (attention.go). Each wraps onto at most bannerMaxLines lines, so the
// cause fits at 80 columns instead of being cut.
const bannerMaxLines = 2

// bannerLines renders the banners for width; nil when there are none.
func (m *Conversation) bannerLines(width int) []string {
	if width <= 0 {
		return nil
	}
	s := m.styles
	var out []string
	add := func(text, glyph string, style func(...string) string) {
		if text == "" {
			return
		}
		wrapped := strings.Split(cellMethod().Wordwrap(glyph+" "+text, width, ""), "\n")
		if len(wrapped) > bannerMaxLines {
			wrapped = wrapped[:bannerMaxLines]
			wrapped[bannerMaxLines-1] += "…"
		}
		for _, line := range wrapped {
			out = append(out, fitLine(style(line), width))
		}
	}
	if text := m.connProblem(); text != "" {
		add(text, s.Glyphs.Error, s.Error.Render)
	}
	if text := m.attentionText(); text != "" {
		style := s.Status(m.attn.status).Render
		add(text, "●", style)
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
	return min(len(m.bannerLines(width)), height/4)
}
