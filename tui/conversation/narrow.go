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

// narrower is the narrowing (|): the one in force, which it reads over
// the log as it grows, a long stretch by a chain of commands. It owns its
// state and its commands; the view hands it the log and its address and
// places the list anew when the narrowing asks (placement).
type narrower struct {
	// cur is the narrowing in force; nil narrows nothing.
	cur *narrowing
}

// placement is how the list is placed after a narrowing's step: as it
// is, scrolled to keep the cursor in the window, or anew (reanchor: the
// cursor moves to the nearest event kept, the window fills).
type placement int

const (
	placeNone placement = iota
	placeFix
	placeAnew
)

// active reports whether a narrowing is in force.
func (w *narrower) active() bool { return w.cur != nil }

// keeps reports whether the list shows event i as far as the narrowing
// knows (all, with none in force).
func (w *narrower) keeps(i int) bool { return w.cur.keeps(i) }

// label is the narrowing for the list's title ("" with none).
func (w *narrower) label() string { return w.cur.label() }

// query is the narrowing in force as typed ("" with none).
func (w *narrower) query() string {
	if w.cur == nil {
		return ""
	}
	return w.cur.query
}

// set puts the narrowing q in force (empty: none), cancelling the one it
// replaces. A short log is read at once; a long one by the command
// returned, whose progress is addressed to the view to.
func (w *narrower) set(q string, to tui.Addr, log *reducer.Log) (tea.Cmd, error) {
	n, err := parseNarrowing(q)
	if err != nil {
		return nil, err
	}
	if w.cur != nil && w.cur.cancel != nil {
		w.cur.cancel()
	}
	if n != nil {
		n.ctx, n.cancel = context.WithCancel(context.Background())
	}
	w.cur = n
	return w.extend(to, log), nil
}

// extend reads the events logged since the narrowing last looked: a few
// (one batch) in this frame, a long stretch (a first narrowing of a long
// log) as a command chain.
func (w *narrower) extend(to tui.Addr, log *reducer.Log) tea.Cmd {
	n := w.cur
	total := log.Len()
	if n == nil || n.running || n.scanned >= total {
		return nil
	}
	if total-n.scanned > inlineScanMax {
		n.running, n.end = true, total
		return narrowCmd(to, log, n, n.scanned, total)
	}
	for ; n.scanned < total; n.scanned++ {
		ev := log.Event(n.scanned)
		n.readInline++
		if n.match(&ev) {
			n.kept = append(n.kept, n.scanned)
		}
	}
	return nil
}

// current reports whether msg is the report the narrowing in force waits
// for (not one of a narrowing replaced since, nor a stale one).
func (w *narrower) current(msg narrowProgressMsg) bool {
	n := w.cur
	return n != nil && msg.n == n && !msg.cancelled && msg.from == n.scanned
}

// progress keeps what a narrowing's command read and goes on with the
// next chunk; once the log is read, it reads the events that arrived
// meanwhile and asks for the list to be placed anew.
func (w *narrower) progress(msg narrowProgressMsg, to tui.Addr, log *reducer.Log) (tea.Cmd, placement) {
	if !w.current(msg) {
		return nil, placeNone
	}
	n := w.cur
	n.kept = append(slices.Clip(n.kept), msg.kept...)
	n.scanned = msg.next
	if msg.next < msg.end {
		return narrowCmd(to, log, n, msg.next, msg.end), placeFix
	}
	n.running = false
	return w.extend(to, log), placeAnew
}

// seek is the nearest event after i (forward) or before it that the
// narrowing keeps and shown (the kind filter, the branch) lets through,
// found among the kept events.
func (w *narrower) seek(i int, forward bool, shown func(int) bool) (int, bool) {
	kept := w.cur.kept
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
