package conversation

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui/text"
)

// scrubber draws the whole conversation as one line: a cell per stretch of
// events, filled up to the cursor, with marks for errors, status changes,
// user turns, search matches and bookmarks. The marks are placed in cells once per log
// version and width; a frame only draws the cells.
type scrubber struct {
	box
	cells text.Cells
	noKeys
	styles *theme.Styles
	// n is the log's length, version its version (the cells' cache key),
	// marks its marks (asked for only when the cells are rebuilt).
	n       int
	version uint64
	marks   func() reducer.Marks
	cursor  int
	// matches are the search's matches, gen its generation.
	matches   []int
	gen       int
	bookmarks []int
	// branchPoints lists a tree's branch points (asked for only when the
	// cells are rebuilt).
	branchPoints func() []int
	cache        *scrubCache
}

// scrubberOf gives the scrubber what it draws.
func (m *Conversation) scrubberOf() *scrubber {
	return &scrubber{styles: &m.styles, cells: m.Cells, n: m.Log.Len(), version: m.Log.Version(), marks: m.Log.Marks,
		cursor: m.cursor, matches: m.search.matches, gen: m.search.gen, bookmarks: m.bookmarks, cache: &m.cache.scrub,
		branchPoints: m.Log.BranchPoints}
}

// cell priorities: a cell shows its most important mark.
const (
	cellNone = iota
	cellUser
	cellStatus
	cellBranch
	cellMatch
	cellBookmark
	cellError
)

// View implements Pane: exactly width×height cells.
func (p *scrubber) View() string {
	width, height := p.width, p.height
	s := p.styles
	g := s.Glyphs
	n := p.n
	if width <= 0 || height <= 0 {
		return ""
	}
	if n == 0 || width < 4 {
		return p.cells.Block(s.Subtle.Render(strings.Repeat(g.ScrubEmpty, width)), width, height)
	}
	found := [2]int{p.gen, len(p.matches)}
	cells := p.cache.get(p.version, width, p.bookmarks, found, func() []int8 {
		marks := p.marks()
		cells := make([]int8, width)
		put := func(idx []int, kind int8) {
			counts := make([]int, width)
			for _, i := range idx {
				counts[cellOf(i, n, width)]++
			}
			least := markThreshold(counts, max(width/4, 1))
			for c, k := range counts {
				if k >= least && cells[c] < kind {
					cells[c] = kind
				}
			}
		}
		put(marks.UserTurns, cellUser)
		put(marks.StatusChanges, cellStatus)
		if p.branchPoints != nil {
			put(p.branchPoints(), cellBranch)
		}
		put(p.matches, cellMatch)
		put(p.bookmarks, cellBookmark)
		put(marks.Errors, cellError)
		return cells
	})
	head := cellOf(max(p.cursor, 0), n, width)
	// Cells of one style are drawn with one Render: a frame renders a few
	// runs, not a style per cell.
	var b, run strings.Builder
	var runStyle lipgloss.Style
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(runStyle.Render(run.String()))
			run.Reset()
		}
	}
	prev := -1
	for c := 0; c < width; c++ {
		kind, st, glyph := int(cells[c]), s.Subtle, g.ScrubEmpty
		switch {
		case c == head:
			kind, st, glyph = -2, s.Accent, g.ScrubHead
		case cells[c] == cellError:
			st, glyph = s.Error, g.MarkError
		case cells[c] == cellBookmark:
			st, glyph = s.Accent, g.MarkBook
		case cells[c] == cellMatch:
			st, glyph = s.Warn, g.MarkMatch
		case cells[c] == cellBranch:
			st, glyph = s.Info, g.MarkBranch
		case cells[c] == cellStatus:
			st, glyph = s.Info, g.MarkStatus
		case cells[c] == cellUser:
			st, glyph = s.SourceUser, g.MarkUser
		case c < head:
			kind, st, glyph = -3, s.Accent, g.ScrubFill
		}
		if kind != prev || kind == -2 {
			flush()
			runStyle, prev = st, kind
		}
		run.WriteString(glyph)
	}
	flush()
	return p.cells.Block(b.String(), width, height)
}

// cellOf maps event i of n to one of width cells.
// markThreshold is the least number of marks a cell needs to show its kind.
// A kind spread over more than limit cells (hundreds of errors in a long
// conversation) shows only in the cells where it is densest, so the bar
// keeps pointing somewhere instead of turning solid.
func markThreshold(counts []int, limit int) int {
	var nonzero []int
	for _, k := range counts {
		if k > 0 {
			nonzero = append(nonzero, k)
		}
	}
	if len(nonzero) <= limit {
		return 1
	}
	slices.Sort(nonzero)
	return nonzero[len(nonzero)-limit]
}

func cellOf(i, n, width int) int {
	if n <= 1 {
		return 0
	}
	return min(width-1, int(int64(i)*int64(width-1)/int64(n-1)))
}

// indexOfCell maps a scrubber cell back to an event index (mouse clicks).
func indexOfCell(c, n, width int) int {
	if width <= 1 || n <= 1 {
		return 0
	}
	return min(n-1, int(int64(c)*int64(n-1)/int64(width-1)))
}

// scrubCache is the scrubber's cells for one log version, width, set of
// bookmarks and search (its generation and number of matches).
type scrubCache struct {
	version   uint64
	width     int
	bookmarks []int
	found     [2]int
	cells     []int8
}

// get returns the cached cells, or builds them on a change.
func (s *scrubCache) get(version uint64, width int, bookmarks []int, found [2]int, build func() []int8) []int8 {
	if s.cells != nil && s.version == version && s.width == width && slices.Equal(s.bookmarks, bookmarks) && s.found == found {
		return s.cells
	}
	*s = scrubCache{version: version, width: width, bookmarks: slices.Clone(bookmarks), found: found, cells: build()}
	return s.cells
}
