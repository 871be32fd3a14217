package conversation

import (
	"strconv"
	"strings"

	"ohwatch/format"
	"ohwatch/model"
	"ohwatch/theme"
)

// progressBarCells is the width of the loading bar in the header.
const progressBarCells = 10

// loading describes a load in progress for the header: "loading 37%
// ━━━━────── 36,800 events". The percentage and the bar measure the
// source's own unit (files or bytes), which it alone knows; the count is
// of the events already on the screen, which every pane works on.
func loadingBadge(s theme.Styles, p *model.Progress) string {
	out := s.Info.Render("loading")
	if p.Total > 0 {
		frac := min(max(float64(p.Done)/float64(p.Total), 0), 1)
		fill := int(frac * progressBarCells)
		out += " " + s.Info.Render(strconv.Itoa(int(frac*100))+"%") + " " +
			s.Accent.Render(strings.Repeat(s.Glyphs.ScrubFill, fill)) +
			s.Subtle.Render(strings.Repeat(s.Glyphs.ScrubEmpty, progressBarCells-fill))
	}
	return out + " " + s.Muted.Render(format.Exact(int64(p.Loaded))+" events")
}
