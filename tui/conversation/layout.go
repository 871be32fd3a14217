package conversation

import (
	"strings"
)

// rect is a pane's place on the screen.
type rect struct{ x, y, w, h int }

// contains reports whether the cell (x, y) is inside r.
func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// screenLayout is where every pane goes for the current terminal size.
type screenLayout struct {
	compact bool
	// zoomed gives the whole body to one pane (zoom.go).
	zoomed   bool
	header   rect
	banner   rect // connection and attention banners, under the header
	list     rect // the event list (or the inspector, help, kind picker)
	side     rect // the right column (wide) or the focused pane (compact)
	strip    rect // the one- or two-line summary (compact only)
	scrubber rect
	footer   rect
}

// Wide layouts need this much room; below it the compact layout puts the
// list on top and a summary strip under it.
const (
	wideMinWidth  = 110
	wideMinHeight = 30
)

// layout computes the pane rectangles; it never returns a negative size.
func (m *Conversation) layout() screenLayout {
	w, h := max(m.width, 1), max(m.height, 1)
	var l screenLayout
	headerH := 2
	if h < 12 {
		headerH = 1
	}
	// On a tiny terminal the footer, then the scrubber, give way.
	footerH := min(m.footerRows(), max(h-headerH, 0))
	scrubH := min(1, max(h-headerH-footerH, 0))
	l.header = rect{0, 0, w, min(headerH, h)}
	l.footer = rect{0, h - footerH, w, footerH}
	l.scrubber = rect{0, h - footerH - scrubH, w, scrubH}
	bannerH := m.bannerHeight(w, h)
	l.banner = rect{0, headerH, w, bannerH}
	bodyY := headerH + bannerH
	bodyH := max(h-headerH-bannerH-footerH-scrubH, 0)
	l.compact = w < wideMinWidth || h < wideMinHeight
	if m.zoom {
		m.zoomLayout(&l, rect{0, bodyY, w, bodyH})
		return l
	}
	if !l.compact {
		sideW := max(34, min(60, w*34/100))
		l.list = rect{0, bodyY, w - sideW - 1, bodyH}
		l.side = rect{w - sideW, bodyY, sideW, bodyH}
		return l
	}
	stripH := 2
	if bodyH < 10 {
		stripH = min(1, bodyH)
	}
	listH := bodyH - stripH
	l.strip = rect{0, bodyY + listH, w, stripH}
	if m.focus != paneList && listH >= 8 {
		sideH := listH / 2
		l.side = rect{0, bodyY + listH - sideH, w, sideH}
		listH -= sideH
	}
	l.list = rect{0, bodyY, w, max(listH, 0)}
	return l
}

// joinColumns puts blocks of equal height side by side, separated by sep.
func joinColumns(sep string, blocks ...string) string {
	cols := make([][]string, len(blocks))
	n := 0
	for i, b := range blocks {
		cols[i] = strings.Split(b, "\n")
		n = max(n, len(cols[i]))
	}
	var b strings.Builder
	for r := 0; r < n; r++ {
		if r > 0 {
			b.WriteByte('\n')
		}
		for c, col := range cols {
			if c > 0 {
				b.WriteString(sep)
			}
			if r < len(col) {
				b.WriteString(col[r])
			}
		}
	}
	return b.String()
}

// stack puts non-empty blocks under each other.
func stack(blocks ...string) string {
	parts := blocks[:0:0]
	for _, b := range blocks {
		if b != "" {
			parts = append(parts, b)
		}
	}
	return strings.Join(parts, "\n")
}
