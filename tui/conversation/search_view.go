package conversation

import (
	"sort"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/theme"
)

// label describes the search for the list title: the query, how many
// events match, and while it runs how far it has got.
func (s searchState) label() string {
	if s.query == "" {
		return ""
	}
	q := "“" + sanitize.Line(s.query) + "”"
	if s.running {
		label := "searching " + q + "… " + s.percent()
		if len(s.matches) > 0 {
			label += " · " + countMatches(len(s.matches))
		}
		return label
	}
	if len(s.matches) == 0 {
		return q + ": no match"
	}
	return q + ": " + countMatches(len(s.matches))
}

// countMatches says "1 match", "31 matches".
func countMatches(n int) string {
	if n == 1 {
		return "1 match"
	}
	return strconv.Itoa(n) + " matches"
}

// percent is how much of its stretch of the log a running search has
// looked at.
func (s searchState) percent() string {
	if s.end <= 0 {
		return "0%"
	}
	return strconv.Itoa(min(100, 100*s.scanned/s.end)) + "%"
}

// status is the footer's word on the search: its progress while it runs,
// then the cursor's place among the matches ("match 3/31").
func (f *finder) status(s theme.Styles, cursor int) string {
	ms := f.matches
	switch {
	case f.running:
		return s.Info.Render("searching… " + f.percent())
	case len(ms) == 0:
		return ""
	}
	if k := sort.SearchInts(ms, cursor); k < len(ms) && ms[k] == cursor {
		return s.Info.Render("match " + strconv.Itoa(k+1) + "/" + strconv.Itoa(len(ms)))
	}
	return s.Info.Render(countMatches(len(ms)))
}

// highlight draws text in style base with every occurrence of the search
// query in the match style, as the search matches it (smart case, ASCII
// folding). With no colours, or for the selected row (drawn in one
// style), the text is drawn as it is.
func highlight(s theme.Styles, q, text string, base lipgloss.Style, plain bool) string {
	if plain {
		return text
	}
	if q == "" || s.NoColor {
		return base.Render(text)
	}
	spans := matchSpans(text, q)
	if len(spans) == 0 {
		return base.Render(text)
	}
	hl := matchStyle(s)
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		if sp[0] > at {
			b.WriteString(base.Render(text[at:sp[0]]))
		}
		b.WriteString(hl.Render(text[sp[0]:sp[1]]))
		at = sp[1]
	}
	if at < len(text) {
		b.WriteString(base.Render(text[at:]))
	}
	return b.String()
}

// matchStyle is how a match stands out in a row: the warning colour,
// reversed.
func matchStyle(s theme.Styles) lipgloss.Style { return s.Warn.Reverse(true) }

// matchSpans returns the byte ranges of the non-overlapping occurrences
// of query in text, folding ASCII case when the query has no capital.
func matchSpans(text, query string) [][2]int {
	m := newMatcher(query)
	hay := text
	if m.fold {
		b := []byte(text)
		lowerASCII(b)
		hay = string(b)
	}
	needle := string(m.needle)
	if needle == "" {
		return nil
	}
	var spans [][2]int
	for at := 0; ; {
		k := strings.Index(hay[at:], needle)
		if k < 0 {
			return spans
		}
		spans = append(spans, [2]int{at + k, at + k + len(needle)})
		at += k + len(needle)
	}
}
