package conversation

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// The narrowing (|) is a text filter over the event list, with the kind
// filter: a row shows only when its kind is let through and its event
// has every term of the narrowing. A term is tool:NAME (the action's or
// observation's tool), failed (an error, a failed observation, a
// non-zero exit code), exit:N or exit:!0 (a terminal observation's exit
// code), or a word looked for in the event's JSON (smart case, as search).
// Search finds; the narrowing hides what does not match.
//
// The narrowing reads each event once. Over a long log that read runs as
// a chain of commands, as a search does (a chunk each, the list's title
// saying how far it got, cancelled when another narrowing replaces it),
// never in Update or View: there, only the events a batch brings (at
// most inlineScanMax) are read, and the list shows the events kept so far.

// narrowing is a parsed narrowing; nil narrows nothing.
type narrowing struct {
	query   string
	tool    string
	failed  bool
	exit    *int
	nonzero bool
	words   []*matcher
	// scanned events have been read; kept are those with every term.
	scanned int
	kept    []int
	// running is set while a command chain reads the log up to end; the
	// view then reads no event itself (the chain's matchers are its own
	// until it reports). cancel stops the chain.
	running bool
	end     int
	ctx     context.Context
	cancel  context.CancelFunc
	// readInline counts the events read in Update (narrowNew): at
	// most inlineScanMax per call, whatever the log's length.
	readInline int
}

// parseNarrowing reads a narrowing; "" is none.
func parseNarrowing(q string) (*narrowing, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, nil
	}
	n := &narrowing{query: q}
	for _, term := range strings.Fields(q) {
		switch {
		case strings.HasPrefix(term, "tool:"):
			n.tool = strings.TrimPrefix(term, "tool:")
		case term == "failed":
			n.failed = true
		case term == "exit:!0":
			n.nonzero = true
		case strings.HasPrefix(term, "exit:"):
			code, err := strconv.Atoi(strings.TrimPrefix(term, "exit:"))
			if err != nil {
				return nil, errors.New("exit: takes a number, or !0 for any failure: " + term)
			}
			n.exit = &code
		default:
			n.words = append(n.words, newMatcher(term))
		}
	}
	return n, nil
}

// keeps reports whether event i has every term, as far as the events
// read so far tell: one not read yet is not shown until it is. A binary
// search in kept, whatever the log's length.
func (n *narrowing) keeps(i int) bool {
	if n == nil {
		return true
	}
	_, found := slices.BinarySearch(n.kept, i)
	return found
}

// scanNarrowing reads events [from, end) of log for n, a chunk's worth at
// most (as a search's chunk), and returns the first index not read and
// the indices kept; ok is false when ctx was cancelled.
func scanNarrowing(ctx context.Context, log *reducer.Log, n *narrowing, from, end int) (next int, kept []int, ok bool) {
	read := 0
	i := from
	for ; i < end && i-from < searchChunkEvents && read < searchChunkBytes; i++ {
		if (i-from)%256 == 0 && ctx.Err() != nil {
			return i, kept, false
		}
		ev := log.Event(i)
		read += len(ev.Raw)
		if n.match(&ev) {
			kept = append(kept, i)
		}
	}
	return i, kept, ctx.Err() == nil
}

// narrowCmd reads events [from, end) for n as a command and reports what
// it kept to the view to.
func narrowCmd(to tui.Addr, log *reducer.Log, n *narrowing, from, end int) tea.Cmd {
	ctx := n.ctx
	return func() tea.Msg {
		next, kept, ok := scanNarrowing(ctx, log, n, from, end)
		return narrowProgressMsg{Addr: to, n: n, from: from, next: next, end: end, kept: kept, cancelled: !ok}
	}
}

// narrowProgressMsg carries what a narrowing's command read.
type narrowProgressMsg struct {
	tui.Addr
	n               *narrowing
	from, next, end int
	kept            []int
	cancelled       bool
}

// narrowNew reads the events logged since the narrowing last looked: a
// few (one batch) in this frame, a long stretch (a first narrowing of a
// long log) as a command chain.
func (m *Conversation) narrowNew() tea.Cmd {
	n := m.narrow
	total := m.Log.Len()
	if n == nil || n.running || n.scanned >= total {
		return nil
	}
	if total-n.scanned > inlineScanMax {
		n.running, n.end = true, total
		return narrowCmd(m.Addr(), m.Log, n, n.scanned, total)
	}
	for ; n.scanned < total; n.scanned++ {
		ev := m.Log.Event(n.scanned)
		n.readInline++
		if n.match(&ev) {
			n.kept = append(n.kept, n.scanned)
		}
	}
	return nil
}

// narrowProgress keeps what a narrowing's command read and goes on with
// the next chunk; once the log is read, the list is placed anew (the
// cursor moves to the nearest event kept) and the events that arrived
// meanwhile are read.
func (m *Conversation) narrowProgress(msg narrowProgressMsg) tea.Cmd {
	n := m.narrow
	if n == nil || msg.n != n || msg.cancelled || msg.from != n.scanned {
		return nil
	}
	h := m.layout().list.h - 1
	var rows []int
	if h > 0 {
		rows = m.visibleRows(h)
	}
	n.kept = append(slices.Clip(n.kept), msg.kept...)
	n.scanned = msg.next
	if msg.next < msg.end {
		m.fixTop()
		return narrowCmd(m.Addr(), m.Log, n, msg.next, msg.end)
	}
	n.running = false
	more := m.narrowNew()
	m.reanchor(m.cursor, rows)
	return more
}

func (n *narrowing) match(ev *model.Event) bool {
	tool, exit := "", (*int)(nil)
	switch b := ev.Body.(type) {
	case *model.Action:
		tool = b.ToolName
	case *model.Observation:
		tool, exit = b.ToolName, b.ExitCode
	}
	if n.tool != "" && !strings.EqualFold(tool, n.tool) {
		return false
	}
	if n.failed && !isError(ev) {
		return false
	}
	if n.nonzero && (exit == nil || *exit == 0) {
		return false
	}
	if n.exit != nil && (exit == nil || *exit != *n.exit) {
		return false
	}
	for _, w := range n.words {
		if !w.matchBytes(ev.Raw) {
			return false
		}
	}
	return true
}

// seekNarrowed is seekShown under a narrowing: the nearest event after i
// (forward) or before it that the narrowing keeps, the kind filter lets
// through and lies on the branch shown, found among the kept events.
func (m *Conversation) seekNarrowed(i int, forward bool) (int, bool) {
	kept := m.narrow.kept
	path, linear := m.shownPath()
	shown := func(j int) bool {
		ev := m.Log.Event(j)
		return m.filter.shows(shortKind(&ev)) && (linear || path.Contains(j))
	}
	if forward {
		k, _ := slices.BinarySearch(kept, i+1)
		for ; k < len(kept); k++ {
			if shown(kept[k]) {
				return kept[k], true
			}
		}
		return 0, false
	}
	k, _ := slices.BinarySearch(kept, i)
	for k--; k >= 0; k-- {
		if shown(kept[k]) {
			return kept[k], true
		}
	}
	return 0, false
}

// label is the narrowing as the list's title says it, and while its
// command reads the log, how far it got.
func (n *narrowing) label() string {
	if n == nil {
		return ""
	}
	l := "| " + sanitize.Line(n.query)
	if n.running && n.end > 0 {
		l += "… " + strconv.Itoa(min(100, 100*n.scanned/n.end)) + "%"
	}
	return l
}

// openNarrow opens the | prompt with the narrowing in force to edit.
func (m *Conversation) openNarrow() {
	in := NewTextInput()
	if m.narrow != nil {
		in.SetValue(m.narrow.query)
		in.CursorEnd()
	}
	m.openPrompt(Prompt{Kind: promptNarrow, in: in})
}

// setNarrowing puts the typed narrowing in force (empty: none), cancelling
// the one it replaces, and places the list anew, as a change of the kind
// filter does. A short log is read at once; a long one by the command
// returned, the list placed anew when it is read.
func (m *Conversation) setNarrowing(q string) tea.Cmd {
	n, err := parseNarrowing(q)
	if err != nil {
		return m.setFlash("narrow: " + err.Error())
	}
	h := m.layout().list.h - 1
	var rows []int
	if h > 0 {
		rows = m.visibleRows(h)
	}
	if m.narrow != nil && m.narrow.cancel != nil {
		m.narrow.cancel()
	}
	if n != nil {
		n.ctx, n.cancel = context.WithCancel(context.Background())
	}
	m.narrow = n
	cmd := m.narrowNew()
	m.reanchor(m.cursor, rows)
	return cmd
}
