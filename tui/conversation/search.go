package conversation

import (
	"cmp"
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// searchState is the current search: its query, the matching event
// indices (sorted), and how far it has got. A search runs as a chain of
// commands, each scanning a stretch of the log and reporting its matches,
// so the list fills in and the progress shows while it runs; a new search
// cancels the one it replaces. Events that arrive after the search started
// are searched as they come, so the matches always cover the whole log.
type searchState struct {
	query   string
	matches []int
	// details are the matches found only in the event's raw JSON, not
	// in its summary (sorted): the list marks them, since their rows
	// show nothing of the match (detailMark).
	details []int
	running bool
	gen     int
	// scanned is how many events, from the first, the search has looked
	// at; end is where the running stretch stops (for the progress).
	scanned, end int
	// jump moves the cursor to the first match at or after origin as soon
	// as one is found (or to the first match once the search is done);
	// quiet says a search with no match is not reported (a preview while
	// typing, a search restored by esc).
	jump   bool
	origin int
	quiet  bool

	match  *matcher
	ctx    context.Context
	cancel context.CancelFunc
	// chunk is the most events one command scans.
	chunk int
}

// inlineScanMax is the most events a frame searches itself when a search
// has fallen behind the log; a longer stretch is searched as a command.
const inlineScanMax = 4096

// searchChunkBytes and searchChunkEvents bound what one search command
// scans before it reports: enough that the round trips cost nothing, few
// enough that the progress moves several times a second. (A view's
// searchChunk can make the events fewer, so that a test watches a small
// log being searched in steps.)
const (
	searchChunkBytes  = 16 << 20
	searchChunkEvents = 50_000
)

// cancelCheckBytes is how much text a search reads between two looks at
// its context.
const cancelCheckBytes = 1 << 20

// startSearch starts a search for query over every event, cancelling the
// one it replaces; jump moves to the first match after the cursor when
// one is found. An empty query clears the search.
func (m *Conversation) startSearch(query string, jump, quiet bool) tea.Cmd {
	query = strings.TrimSpace(query)
	m.stopSearch()
	gen := m.search.gen + 1
	if query == "" {
		m.search = searchState{gen: gen}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.search = searchState{
		query: query, running: true, gen: gen, end: m.Log.Len(),
		jump: jump, origin: max(m.cursor, 0), quiet: quiet,
		match: newMatcher(query), ctx: ctx, cancel: cancel,
		chunk: cmp.Or(m.searchChunk, searchChunkEvents),
	}
	return m.search.scanCmd(m.Addr(), m.Log, 0, m.search.end)
}

// stopSearch cancels the running search's commands, if any.
func (m *Conversation) stopSearch() {
	if m.search.cancel != nil {
		m.search.cancel()
	}
}

// scanCmd scans events [from, end) as a command, a chunk at a time, and
// addresses what it found to the view to.
func (s searchState) scanCmd(to tui.Addr, log *reducer.Log, from, end int) tea.Cmd {
	ctx, match, gen, chunk := s.ctx, s.match, s.gen, s.chunk
	return func() tea.Msg {
		next, matches, details, ok := scanEvents(ctx, log, match, from, end, chunk)
		return searchProgressMsg{Addr: to, gen: gen, from: from, next: next, end: end, matches: matches, details: details, cancelled: !ok}
	}
}

// scanEvents returns the indices in [from, end) whose summary or raw JSON
// holds the query, and of those the ones whose summary does not (details),
// stopping after a chunk's worth of text or chunk events: next is the
// first index not looked at. ok is false when ctx was cancelled.
func scanEvents(ctx context.Context, log *reducer.Log, match *matcher, from, end, chunk int) (next int, matches, details []int, ok bool) {
	read, sinceCheck := 0, 0
	i := from
	for ; i < end && i-from < max(chunk, 1) && read < searchChunkBytes; i++ {
		if sinceCheck >= cancelCheckBytes || (i-from)%256 == 0 {
			if ctx.Err() != nil {
				return i, matches, details, false
			}
			sinceCheck = 0
		}
		ev := log.Event(i)
		size := len(ev.Summary) + len(ev.Raw)
		read += size
		sinceCheck += size
		if match.matchString(ev.Summary) {
			matches = append(matches, i)
		} else if matchLarge(ctx, match, ev.Raw) {
			matches = append(matches, i)
			details = append(details, i)
		}
	}
	return i, matches, details, ctx.Err() == nil
}

// matchLarge matches raw JSON, a slice of cancelCheckBytes at a time when
// it is large, so cancelling stops even a search inside a 50 MB event at
// once. The slices overlap by the query's length less one.
func matchLarge(ctx context.Context, match *matcher, raw []byte) bool {
	overlap := len(match.needle) - 1
	for start := 0; ; {
		end := min(start+cancelCheckBytes, len(raw))
		if match.matchBytes(raw[start:end]) {
			return true
		}
		if end == len(raw) || ctx.Err() != nil {
			return false
		}
		start = end - overlap
	}
}

// searchProgress stores what a search command found, moves to the first
// match when the search was asked to, and goes on with the next chunk; a
// search that fell behind the log while it ran goes on over the events
// that arrived.
func (m *Conversation) searchProgress(msg searchProgressMsg) tea.Cmd {
	s := &m.search
	if msg.gen != s.gen || msg.cancelled || msg.from != s.scanned {
		return nil
	}
	if len(msg.matches) > 0 {
		s.matches = append(slices.Clip(s.matches), msg.matches...)
		s.details = append(slices.Clip(s.details), msg.details...)
	}
	s.scanned = msg.next
	if msg.next < msg.end {
		m.searchJump(false)
		return s.scanCmd(m.Addr(), m.Log, msg.next, msg.end)
	}
	s.running = false
	m.searchJump(true)
	more := m.searchNew()
	if !m.search.running && len(m.search.matches) == 0 && !m.search.quiet {
		m.search.quiet = true // reported once
		flash := m.setFlash("no match for “" + sanitize.Line(m.search.query) + "”")
		return tea.Batch(more, flash)
	}
	return more
}

// searchJump moves to the first match at or after the search's origin,
// once; when done, a search with matches only before the origin wraps to
// the first.
func (m *Conversation) searchJump(done bool) {
	s := &m.search
	if !s.jump || len(s.matches) == 0 {
		return
	}
	i, ok := nextIn(s.matches, s.origin-1, true)
	if !ok {
		if !done {
			return
		}
		i = s.matches[0]
	}
	s.jump = false
	m.travel(i)
}

// searchNew extends a search over the events logged since it last looked:
// a few (one batch) in this frame, a long stretch as a command.
func (m *Conversation) searchNew() tea.Cmd {
	s := &m.search
	n := m.Log.Len()
	if s.query == "" || s.running || s.scanned >= n {
		return nil
	}
	if n-s.scanned > inlineScanMax {
		s.running, s.end = true, n
		return s.scanCmd(m.Addr(), m.Log, s.scanned, n)
	}
	for s.scanned < n {
		next, more, details, _ := scanEvents(context.Background(), m.Log, s.match, s.scanned, n, s.chunk)
		if len(more) > 0 {
			s.matches = append(slices.Clip(s.matches), more...)
			s.details = append(slices.Clip(s.details), details...)
		}
		s.scanned = next
	}
	m.searchJump(true)
	return nil
}

// nextMatch moves to the next (or previous) match, wrapping around, and
// says so when it wrapped: a reader who pressed n past the last match
// would otherwise believe the list went on.
func (m *Conversation) nextMatch(forward bool) tea.Cmd {
	ms := m.search.matches
	if len(ms) == 0 {
		return nil
	}
	i, ok := nextIn(ms, m.cursor, forward)
	if ok {
		m.moveTo(i)
		return nil
	}
	i, say := ms[0], "search wrapped to the first match (n)"
	if !forward {
		i, say = ms[len(ms)-1], "search wrapped to the last match (N)"
	}
	m.moveTo(i)
	return m.setFlash(say)
}

// clearSearch drops the search and its marks (esc in the list).
func (m *Conversation) clearSearch() tea.Cmd {
	q := m.search.query
	m.startSearch("", false, true)
	return m.setFlash("cleared the search for “" + sanitize.Line(q) + "”")
}
