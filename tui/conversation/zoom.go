package conversation

import (
	tea "charm.land/bubbletea/v2"

	"ohwatch/reducer"
	"ohwatch/tui"
)

// The zoom (Z) gives one pane the whole body of the screen, between the
// banners and the scrubber, as lazygit's full-screen mode does: the
// event list, or what is shown in its place (the inspector, the help,
// the kind picker), or the focused side pane. The inspector otherwise
// keeps two thirds of a wide screen; zoomed, a long command or diff
// reads at the terminal's width. Z again gives the other panes their
// room back.

// toggleZoom zooms the focused pane in or out; the inspector's markdown
// is rendered again for its new width.
func (m *Conversation) toggleZoom() tea.Cmd {
	m.zoom = !m.zoom
	m.fixTop()
	return m.refreshMarkdown()
}

// zoomLayout lays out the body for the zoom: the focused side pane takes
// it when nothing is shown in the list's place, else the list's place.
func (m *Conversation) zoomLayout(l *screenLayout, body rect) {
	l.zoomed = true
	if m.focus != paneList && !m.inspecting() && !m.listCovered() {
		l.side = body
		l.list = rect{body.x, body.y, body.w, 0}
		return
	}
	l.list = body
}

// zoomedPane draws the zoomed body: the focused side pane, or main (the
// list's place, already drawn).
func (m *Conversation) zoomedPane(st reducer.State, k *tui.KeyMap, l screenLayout, main string) string {
	if l.side.h > 0 {
		f := m.sidePane(st, k, m.focus, l.side.w, l.side.h)
		f.title += " · zoomed (" + k.Zoom.Help().Key + ")"
		return draw(f, l.side.w, l.side.h)
	}
	return main
}
