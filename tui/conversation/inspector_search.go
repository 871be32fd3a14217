package conversation

import (
	"slices"

	"github.com/charmbracelet/x/ansi"

	"ohwatch/theme"
)

// The search reaches into the inspector: the lines of the inspected event
// that hold the query are highlighted as the list's rows are, its title
// says which match is current ("match 2/5"), and n/N move between those
// lines (scrolling to each) before going on to the next or previous
// matching event, where the inspector opens on its first (or, going
// back, last) match. An event the search matched only in a part of its
// JSON that the current mode does not show says so in the title.

// hitKey is what the lines that hold the query depend on.
type hitKey struct {
	query  string
	width  int
	mode   inspectMode
	folds  int
	nowrap bool
	// md says the markdown's rendering for this width was in place.
	md bool
}

// hitCache keeps the lines of the inspector that hold the query, so a
// frame finds them once per change of what they depend on.
type hitCache struct {
	key   hitKey
	lines []int
	ok    bool
}

// hitLines returns the indices of lines that hold query, lines being the
// inspector's lines at width; none while the view is being built.
func (in *inspector) hitLines(lines []string, query string, width int) []int {
	d := in.data
	if query == "" || d == nil {
		return nil
	}
	key := hitKey{query: query, width: width, mode: in.mode, folds: d.folds, nowrap: in.nowrap,
		md: d.md != nil && d.md.lines != nil && d.md.width == width}
	if d.hits.ok && d.hits.key == key {
		return d.hits.lines
	}
	var hits []int
	for k, l := range lines {
		if len(matchSpans(ansi.Strip(l), query)) > 0 {
			hits = append(hits, k)
		}
	}
	d.hits = hitCache{key: key, lines: hits, ok: true}
	return hits
}

// highlightLine draws line with every match of query in the match style;
// the rest of the line loses its own styles. Without colours it is left
// as it is (the title's "match k/n" says where the match is).
func highlightLine(s theme.Styles, query, line string) string {
	if s.NoColor {
		return line
	}
	return highlight(s, query, ansi.Strip(line), s.Text, false)
}

// hitLabel is the title's word on the search in the inspector: the
// current match among the event's lines, or that the event matched where
// this mode does not show.
func (in *inspector) hitLabel(hits []int) string {
	switch {
	case in.env.query == "":
		return ""
	case len(hits) > 0:
		if k, ok := slices.BinarySearch(hits, in.hit-1); ok {
			return " · match " + Itoa(k+1) + "/" + Itoa(len(hits))
		}
		return " · " + countMatches(len(hits))
	case in.matched() && in.mode != modeRaw && in.data != nil:
		return " · matched in raw JSON (" + in.env.keys.Raw.Help().Key + ")"
	}
	return ""
}

// nextHit moves to the next (or previous) line of the inspected event
// that holds the search's query and scrolls to it; false when there is
// none that way (n/N then go on to the next matching event).
func (in *inspector) nextHit(forward bool) bool {
	q := in.env.query
	r := in.env.area
	lines, _ := in.linesAt(r.w)
	hits := in.hitLines(lines, q, r.w)
	if len(hits) == 0 {
		return false
	}
	cur := in.hit - 1
	if in.hit == 0 && !forward {
		cur = len(lines)
	}
	var next int
	if forward {
		k, _ := slices.BinarySearch(hits, cur+1)
		if k == len(hits) {
			return false
		}
		next = hits[k]
	} else {
		k, _ := slices.BinarySearch(hits, cur)
		if k == 0 {
			return false
		}
		next = hits[k-1]
	}
	in.showHit(next, len(lines))
	return true
}

// showHit makes line the current match and scrolls it into view, a third
// down the pane; in the raw view it becomes the selected line too.
func (in *inspector) showHit(line, total int) {
	body := max(in.env.area.h-1, 1)
	in.hit = line + 1
	if in.mode == modeRaw {
		in.line = line
	}
	if line < in.scroll || line >= in.scroll+body {
		in.scroll = clampScroll(line-body/3, total, body)
	}
}

// firstHit puts the inspector on its event's first match (the last when
// it was opened by N) once its view is built, scrolling only when that
// match is not on the first screen.
func (in *inspector) firstHit() {
	q := in.env.query
	if q == "" || in.data == nil {
		return
	}
	r := in.env.area
	lines, _ := in.linesAt(r.w)
	hits := in.hitLines(lines, q, r.w)
	if len(hits) == 0 {
		return
	}
	at := hits[0]
	if in.hitLast {
		at = hits[len(hits)-1]
	}
	in.showHit(at, len(lines))
}

// onlyMatch reports whether the inspected event is the search's one match.
func (in *inspector) onlyMatch() bool {
	ms := in.env.matches
	return len(ms) == 1 && ms[0] == in.index
}

// matched reports whether the search matched the inspected event.
func (in *inspector) matched() bool {
	_, found := slices.BinarySearch(in.env.matches, in.index)
	return found && in.env.query != ""
}
