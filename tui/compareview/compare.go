package compareview

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/compare"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// The compare screen shows two runs side by side, their steps lined up
// (the compare package's alignment), with one cursor along the rows: both
// sides' status, metrics and tasks are shown as of the cursor's row, time
// travel on both at once. The alignment runs in a command, never in
// Update: a side that keeps streaming is aligned again once the last
// alignment is in, so a live comparison follows both runs.

// CompareSide is one run of a comparison.
type CompareSide struct {
	Title, Source string
	Log           *reducer.Log
	// Feed delivers the side's events; nil when another screen feeds its
	// log (a fork's view under this screen) or the log is complete.
	Feed <-chan model.Batch
	// Live says the side may still grow: without a feed, its log is
	// looked at again every comparePoll.
	Live bool
	// Through is the event whose branch is compared ("" for HEAD's path).
	Through string
	// Ended says the side is a recording that has ended.
	Ended bool
}

// CompareOptions is what the compare screen needs from its caller.
type CompareOptions struct {
	A, B CompareSide
	// KeyMap overrides the keys; the zero value means DefaultCompareKeyMap.
	KeyMap  tui.CompareKeyMap
	NoColor bool
	Theme   theme.Mode
	Profile colorprofile.Profile
	// End is called once the screen is left for good (popped): it ends
	// the feeds opened for it.
	End func()
	// common is the Common handed on by the screen that opens this one
	// (SetCommon): its width model and clock come with it.
	common tui.Common
}

// comparePoll is how often a side fed elsewhere is looked at again.
const comparePoll = 500 * time.Millisecond

// Compare is the compare screen.
type Compare struct {
	// Base is the screen id the compare's commands address, and whether
	// it is the root.
	tui.Base
	// Common is how the screen draws and measures (the width model as
	// the router last told it): the one handed on by the screen that
	// opened it, or its options'.
	tui.Common
	opts   CompareOptions
	keys   tui.CompareKeyMap
	colour tui.Colours
	styles theme.Styles
	width  int
	height int

	runA, RunB *compare.Run
	// Cmp is the latest alignment; rows its rows with each side's last
	// step at or before each row.
	Cmp *compareRows
	// aligning is set while an alignment runs; again asks for another
	// once it is in (a side changed meanwhile).
	aligning, again bool
	// versions are the logs' versions the latest alignment started from.
	versionA, versionB uint64
	doneA, doneB       bool

	Cursor, top int
	moved       bool
	// overlay is the stack of open dialogs (the key reference), drawn
	// over the screen; the top one reads the keys first (tui/dialog).
	overlay dialog.Overlay
	detail  *compareDetail
	flash   string
	// detailSeq numbers the detail's openings (compareDetail.seq).
	detailSeq int
}

// compareRows is an alignment with, for each row, the last step of each
// side at or before it (-1 before the side's first): the step whose
// state a gap shows.
type compareRows struct {
	*compare.Comparison
	lastA, lastB []int32
	diffs        []int32 // the rows that are not the same, in order
	// endA and endB are the last rows holding a step of each side, -1
	// for none: a side still streaming has not got past its end.
	endA, endB int
}

// Messages of the compare screen's commands.
type (
	compareBatchMsg struct {
		tui.Addr
		side   int // 0 for A, 1 for B
		batch  model.Batch
		closed bool
	}
	comparedMsg struct {
		tui.Addr
		rows *compareRows
	}
	comparePollMsg struct{ tui.Addr }
)

// SetCommon draws the screen as the screen that opens it draws (palette,
// profile, NO_COLOR): the compare screen's keys are its own.
func (o *CompareOptions) SetCommon(c tui.Common) {
	o.NoColor, o.Theme, o.Profile = c.NoColor, c.Theme, c.Profile
	o.common = c
}

// Common is the screen's Common: the one handed on (SetCommon), drawn as
// the options say.
func (o CompareOptions) Common() tui.Common {
	c := o.common
	c.NoColor, c.Theme, c.Profile = o.NoColor, o.Theme, o.Profile
	return c
}

// NewCompare builds the compare screen of two runs.
func NewCompare(opts CompareOptions) *Compare {
	keys := opts.KeyMap
	if len(keys.Down.Keys()) == 0 {
		keys = tui.DefaultCompareKeyMap()
	}
	c := tui.NewColours(opts.Theme, opts.Profile, opts.NoColor)
	side := func(name string, s CompareSide) *compare.Run {
		return compare.NewRun(compare.Side{Name: name, Title: s.Title, Source: s.Source, Log: s.Log, Through: s.Through, Ended: s.Ended})
	}
	return &Compare{Base: tui.NewBase(), Common: opts.Common(), opts: opts, keys: keys, colour: c, styles: c.Styles(), width: 80, height: 24,
		runA: side("A", opts.A), RunB: side("B", opts.B), doneA: opts.A.Feed == nil, doneB: opts.B.Feed == nil}
}

// RunCompare shows the compare screen until the user quits or ctx is
// cancelled; it ends as Run does. Colours are off when opts.NoColor says
// so (the caller reads NO_COLOR once, as for every screen).
func RunCompare(ctx context.Context, opts CompareOptions) error {
	return tui.RunScreens(ctx, NewCompare(opts), tui.ProgramColours(&opts.Profile)...)
}

// release implements releasable: the feeds opened for the screen end.
func (c *Compare) Release() {
	if c.opts.End != nil {
		c.opts.End()
	}
}

// Init starts both feeds, the first alignment and, for a side fed
// elsewhere that may grow, the poll.
func (c *Compare) Init() tea.Cmd {
	cmds := []tea.Cmd{c.colour.Init(), c.WaitFeed(0), c.WaitFeed(1), c.align()}
	if c.polls() {
		cmds = append(cmds, c.poll())
	}
	return tea.Batch(cmds...)
}

// streaming reports whether side (0 A, 1 B) may still grow.
func (c *Compare) streaming(side int) bool {
	if side == 0 {
		return !c.doneA || c.opts.A.Live
	}
	return !c.doneB || c.opts.B.Live
}

// polls reports whether a side grows without a feed of the screen's own.
func (c *Compare) polls() bool {
	return (c.opts.A.Feed == nil && c.opts.A.Live) || (c.opts.B.Feed == nil && c.opts.B.Live)
}

func (c *Compare) poll() tea.Cmd {
	to := c.Addr()
	return tea.Tick(comparePoll, func(time.Time) tea.Msg { return comparePollMsg{Addr: to} })
}

// SetSize gives the screen the terminal's size.
func (c *Compare) SetSize(w, h int) {
	c.width, c.height = w, h
	c.scrollToCursor()
}

// setCells implements measured: the screen measures under the terminal's
// width model; it keeps no rows measured under another.
func (c *Compare) SetCells(cells text.Cells) tea.Cmd {
	c.Cells = cells
	return nil
}

// WaitFeed reads the next batch of side's feed.
func (c *Compare) WaitFeed(side int) tea.Cmd {
	feed, done := c.opts.A.Feed, c.doneA
	if side == 1 {
		feed, done = c.opts.B.Feed, c.doneB
	}
	if feed == nil || done {
		return nil
	}
	to := c.Addr()
	return func() tea.Msg {
		b, ok := <-feed
		return compareBatchMsg{Addr: to, side: side, batch: b, closed: !ok}
	}
}

// align lines the two runs up again in a command, unless an alignment is
// already running (then once it is in).
func (c *Compare) align() tea.Cmd {
	if c.aligning {
		c.again = true
		return nil
	}
	c.aligning, c.again = true, false
	a, b, to := c.runA, c.RunB, c.Addr()
	c.versionA, c.versionB = a.Log.Version(), b.Log.Version()
	return func() tea.Msg { return comparedMsg{Addr: to, rows: newCompareRows(compare.Compare(a, b))} }
}

// newCompareRows indexes an alignment for the screen.
func newCompareRows(cmp *compare.Comparison) *compareRows {
	r := &compareRows{Comparison: cmp, lastA: make([]int32, len(cmp.Rows)), lastB: make([]int32, len(cmp.Rows)), endA: -1, endB: -1}
	la, lb := int32(-1), int32(-1)
	for k, row := range cmp.Rows {
		if row.A >= 0 {
			la, r.endA = int32(row.A), k
		}
		if row.B >= 0 {
			lb, r.endB = int32(row.B), k
		}
		r.lastA[k], r.lastB[k] = la, lb
		if row.Op != compare.Same {
			r.diffs = append(r.diffs, int32(k))
		}
	}
	return r
}

// Update answers a message.
func (c *Compare) Update(msg tea.Msg) tea.Cmd {
	if _, key := msg.(tea.KeyPressMsg); !key {
		// The open dialogs see the rest first: the mouse and pastes of
		// the top one, the results of their commands. Keys go through
		// key, where ctrl+c comes first.
		if cmd, took := c.overlay.Update(msg); took {
			return cmd
		}
	}
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg, tea.ColorProfileMsg:
		if c.colour.Update(msg) {
			c.styles = c.colour.Styles()
		}
	case compareBatchMsg:
		return c.ingest(msg)
	case comparedMsg:
		return c.compared(msg.rows)
	case compareDetailMsg:
		c.detailBuilt(msg)
	case comparePollMsg:
		var cmd tea.Cmd
		if c.runA.Log.Version() != c.versionA || c.RunB.Log.Version() != c.versionB {
			cmd = c.align()
		}
		return tea.Batch(cmd, c.poll())
	case tea.KeyPressMsg:
		return c.key(msg)
	}
	return nil
}

// ingest appends a side's batch to its log and aligns again.
func (c *Compare) ingest(msg compareBatchMsg) tea.Cmd {
	log := c.runA.Log
	if msg.side == 1 {
		log = c.RunB.Log
	}
	if msg.closed {
		if msg.side == 0 {
			c.doneA = true
		} else {
			c.doneB = true
		}
		return c.align()
	}
	if len(msg.batch.Events) > 0 {
		log.Append(msg.batch.Events...)
	}
	if len(msg.batch.Warnings) > 0 {
		c.flash = sanitize.Line(msg.batch.Warnings[len(msg.batch.Warnings)-1])
	}
	return tea.Batch(c.align(), c.WaitFeed(msg.side))
}

// compared takes a finished alignment: until the user moves, the cursor
// sits on the first difference (a fork's comparison opens where it parts
// from its parent).
func (c *Compare) compared(rows *compareRows) tea.Cmd {
	c.Cmp, c.aligning = rows, false
	if !c.moved && rows.FirstDiff >= 0 {
		c.Cursor = rows.FirstDiff
	}
	c.Cursor = min(c.Cursor, max(len(rows.Rows)-1, 0))
	c.scrollToCursor()
	if c.again {
		return c.align()
	}
	return nil
}

// rowCount is the number of aligned rows.
func (c *Compare) rowCount() int {
	if c.Cmp == nil {
		return 0
	}
	return len(c.Cmp.Rows)
}

// key answers a key press.
func (c *Compare) key(msg tea.KeyPressMsg) tea.Cmd {
	k := c.keys
	if key.Matches(msg, k.Interrupt) {
		return tea.Interrupt
	}
	c.flash = ""
	c.fitDialogs()
	if cmd, took := c.overlay.Update(msg); took {
		return cmd
	}
	if c.detail != nil {
		return c.detailKey(msg)
	}
	n := c.rowCount()
	switch {
	case key.Matches(msg, k.Quit):
		return tui.Pop()
	case key.Matches(msg, k.Back):
		return tui.Back()
	case key.Matches(msg, k.Help):
		c.openHelp()
	case key.Matches(msg, k.Down):
		c.moveTo(c.Cursor + 1)
	case key.Matches(msg, k.Up):
		c.moveTo(c.Cursor - 1)
	case key.Matches(msg, k.Top):
		c.moveTo(0)
	case key.Matches(msg, k.Bottom):
		c.moveTo(n - 1)
	case key.Matches(msg, k.PageDown):
		c.moveTo(c.Cursor + c.listRows())
	case key.Matches(msg, k.PageUp):
		c.moveTo(c.Cursor - c.listRows())
	case key.Matches(msg, k.NextDiff):
		c.jumpDiff(true)
	case key.Matches(msg, k.PrevDiff):
		c.jumpDiff(false)
	case key.Matches(msg, k.Open):
		if n > 0 {
			return c.openDetail(c.Cursor)
		}
	default:
		// A key of the conversation's view (n, space, a…) says so here.
		c.flash = tui.Unsupported(tui.CompareKeyTable(c.keys), msg, "a conversation's view, not of compare")
	}
	return nil
}

// moveTo puts the cursor on row i, within the rows.
func (c *Compare) moveTo(i int) {
	c.moved = true
	c.Cursor = max(min(i, c.rowCount()-1), 0)
	c.scrollToCursor()
}

// jumpDiff moves to the next (or previous) row that is not the same, by
// binary search over the rows that differ.
func (c *Compare) jumpDiff(next bool) {
	if c.Cmp == nil || len(c.Cmp.diffs) == 0 {
		c.flash = "the runs do not differ"
		return
	}
	d := c.Cmp.diffs
	lo, hi := 0, len(d)
	for lo < hi { // first diff row > cursor
		mid := (lo + hi) / 2
		if int(d[mid]) <= c.Cursor {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	switch {
	case next && lo < len(d):
		c.moveTo(int(d[lo]))
	case next:
		c.flash = "no difference after this row"
	default:
		k := lo - 1
		if k >= 0 && int(d[k]) == c.Cursor {
			k--
		}
		if k < 0 {
			c.flash = "no difference before this row"
			return
		}
		c.moveTo(int(d[k]))
	}
}

// scrollToCursor keeps the cursor's row on the screen.
func (c *Compare) scrollToCursor() {
	h := c.listRows()
	if c.Cursor < c.top {
		c.top = c.Cursor
	}
	if c.Cursor >= c.top+h {
		c.top = c.Cursor - h + 1
	}
	c.top = max(min(c.top, c.rowCount()-h), 0)
}

// ShortHelp implements help.KeyMap: the screen's keys, or those of the
// dialog open over it.
func (c *Compare) ShortHelp() []key.Binding {
	if d := c.overlay.Top(); d != nil {
		return d.ShortHelp()
	}
	return c.keys.ShortHelp()
}

// FullHelp implements help.KeyMap.
func (c *Compare) FullHelp() [][]key.Binding { return c.keys.FullHelp() }
