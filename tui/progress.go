package tui

import (
	"strconv"
	"strings"
)

// progressBarCells is the width of the loading bar in the header.
const progressBarCells = 10

// loading describes a load in progress for the header: "loading 37%
// ━━━━────── 36,800 events". The percentage and the bar measure the
// source's own unit (files or bytes), which it alone knows; the count is
// of the events already on the screen, which every pane works on.
func (h header) loading() string {
	m := h.m
	s := m.styles
	p := m.progress
	out := s.Info.Render("loading")
	if p.Total > 0 {
		frac := min(max(float64(p.Done)/float64(p.Total), 0), 1)
		fill := int(frac * progressBarCells)
		out += " " + s.Info.Render(strconv.Itoa(int(frac*100))+"%") + " " +
			s.Accent.Render(strings.Repeat(s.Glyphs.ScrubFill, fill)) +
			s.Subtle.Render(strings.Repeat(s.Glyphs.ScrubEmpty, progressBarCells-fill))
	}
	return out + " " + s.Muted.Render(groupDigits(int64(p.Loaded))+" events")
}

// groupDigits prints n with thousands separators: 100000 → "100,000".
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
