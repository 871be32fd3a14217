package conversation

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
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

// finder is the search (/, n, N): the search in force, the searches kept
// with enter, and how it moves the cursor. It owns its state and its
// commands; the view hands it the log, the cursor and its address, and
// carries out what it asks (find outcome: a jump, a word in the footer).
type finder struct {
	// searchState is the current search; its fields are the search's
	// query, matches and progress as the view reads them.
	searchState
	// hist is the searches kept with enter, the latest last.
	hist []string
	// chunkEvents is the most events one search command scans; 0 is
	// searchChunkEvents (a test makes it small to watch a search move).
	chunkEvents int
}

// start starts a search for query over every event of log, cancelling
// the one it replaces; jump moves to the first match at or after cursor
// when one is found. An empty query clears the search. Its progress is
// addressed to the view to.
func (f *finder) start(to tui.Addr, log *reducer.Log, cursor int, query string, jump, quiet bool) tea.Cmd {
	query = strings.TrimSpace(query)
	if query == "" {
		f.reset()
		return nil
	}
	f.stop()
	gen := f.gen + 1
	ctx, cancel := context.WithCancel(context.Background())
	f.searchState = searchState{
		query: query, running: true, gen: gen, end: log.Len(),
		jump: jump, origin: max(cursor, 0), quiet: quiet,
		match: newMatcher(query), ctx: ctx, cancel: cancel,
		chunk: cmp.Or(f.chunkEvents, searchChunkEvents),
	}
	return f.scanCmd(to, log, 0, f.end)
}

// reset drops the search in force: no query, no marks.
func (f *finder) reset() {
	f.stop()
	f.searchState = searchState{gen: f.gen + 1}
}

// stop cancels the running search's commands, if any.
func (f *finder) stop() {
	if f.cancel != nil {
		f.cancel()
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

// progress stores what a search command found, moves to the first match
// when the search was asked to, and goes on with the next chunk; a search
// that fell behind the log while it ran goes on over the events that
// arrived.
func (f *finder) progress(msg searchProgressMsg, to tui.Addr, log *reducer.Log) outcome {
	var o outcome
	s := &f.searchState
	if msg.gen != s.gen || msg.cancelled || msg.from != s.scanned {
		return o
	}
	if len(msg.matches) > 0 {
		s.matches = append(slices.Clip(s.matches), msg.matches...)
		s.details = append(slices.Clip(s.details), msg.details...)
	}
	s.scanned = msg.next
	if msg.next < msg.end {
		f.jumpFirst(&o, false)
		o.cmd = s.scanCmd(to, log, msg.next, msg.end)
		return o
	}
	s.running = false
	f.jumpFirst(&o, true)
	more := f.extend(to, log)
	o.cmd = more.cmd
	if more.move {
		o.jumpTo(more.to)
	}
	if !s.running && len(s.matches) == 0 && !s.quiet {
		s.quiet = true // reported once
		o.flash = "no match for “" + sanitize.Line(s.query) + "”"
	}
	return o
}

// jumpFirst asks for the first match at or after the search's origin,
// once; when done, a search with matches only before the origin wraps to
// the first.
func (f *finder) jumpFirst(o *outcome, done bool) {
	s := &f.searchState
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
	o.jumpTo(i)
}

// extend extends a search over the events logged since it last looked: a
// few (one batch) in this frame, a long stretch as a command.
func (f *finder) extend(to tui.Addr, log *reducer.Log) outcome {
	var o outcome
	s := &f.searchState
	n := log.Len()
	if s.query == "" || s.running || s.scanned >= n {
		return o
	}
	if n-s.scanned > inlineScanMax {
		s.running, s.end = true, n
		o.cmd = s.scanCmd(to, log, s.scanned, n)
		return o
	}
	for s.scanned < n {
		next, more, details, _ := scanEvents(context.Background(), log, s.match, s.scanned, n, s.chunk)
		if len(more) > 0 {
			s.matches = append(slices.Clip(s.matches), more...)
			s.details = append(slices.Clip(s.details), details...)
		}
		s.scanned = next
	}
	f.jumpFirst(&o, true)
	return o
}

// key answers n and N (k is the active key map): the next (or previous)
// match from cursor, wrapping around, saying so when it wrapped: a reader
// who pressed n past the last match would otherwise believe the list went
// on. It reports whether the key was one of them.
func (f *finder) key(msg tea.KeyPressMsg, k tui.KeyMap, cursor int) (outcome, bool) {
	var o outcome
	forward := key.Matches(msg, k.NextMatch)
	if !forward && !key.Matches(msg, k.PrevMatch) {
		return o, false
	}
	ms := f.matches
	if len(ms) == 0 {
		return o, true
	}
	i, ok := nextIn(ms, cursor, forward)
	if ok {
		o.moveTo(i)
		return o, true
	}
	i, o.flash = ms[0], "search wrapped to the first match (n)"
	if !forward {
		i, o.flash = ms[len(ms)-1], "search wrapped to the last match (N)"
	}
	o.moveTo(i)
	return o, true
}

// clear drops the search and its marks (esc in the list) and says so.
func (f *finder) clear() outcome {
	q := f.query
	f.reset()
	return outcome{flash: "cleared the search for “" + sanitize.Line(q) + "”"}
}

// keep records a search kept with enter in the history.
func (f *finder) keep(query string) { f.hist = appendHistory(f.hist, query) }

// stopJumping stops a running search from moving the cursor: the user
// went somewhere.
func (f *finder) stopJumping() { f.jump = false }
