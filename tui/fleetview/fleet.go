package fleetview

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/fleet"
	"ohwatch/guard"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// FleetOptions is everything the fleet table needs from its caller, which
// wires the sources to Feed and knows how to open one conversation.
type FleetOptions struct {
	// Feed delivers the fleet's updates, about one slice per frame. When
	// it closes, the sources are done; the table stays.
	Feed <-chan []model.FleetUpdate
	// Where names what is watched ("~/.openhands/conversations, cloud").
	Where string
	// Open prepares the full monitor of one conversation: it runs in a
	// command, off the UI, and returns the Options of a conversation view
	// (whose feed loads the events with progress). ctx lives as long as
	// the view: it is cancelled when the person goes back to the table,
	// which drops the view; the session's feed must end with it. nil
	// disables enter.
	Open func(ctx context.Context, ref model.ConversationRef) (conversation.Options, error)
	// Resume resumes the paused sandbox of a conversation (a Cloud
	// conversation's) and prepares its full monitor live, once it runs,
	// as Open does. When it is set, enter on a paused conversation says so
	// and asks: y resumes it, n or esc opens the stored events read-only
	// with Open. nil: enter opens a paused one read-only at once.
	Resume func(ctx context.Context, ref model.ConversationRef) (conversation.Options, error)
	// Notify rings the bell and sends a desktop notification (OSC 9 and
	// OSC 777) when a conversation newly needs attention. main sets it
	// only when stdout is a terminal and --no-notify is not given.
	Notify bool
	// Tmux wraps the notifications for tmux's passthrough ($TMUX is set).
	Tmux bool
	// KeyMap overrides the keys; the zero value means DefaultFleetKeyMap.
	KeyMap tui.FleetKeyMap
	// Columns are the columns shown after the title (each still only
	// where the width allows it); nil shows them all.
	Columns []fleet.Column
	// Order is the table's first sort and grouping; nil sorts by idle.
	Order *fleet.Query
	// NoColor, Theme and Profile are as in Options.
	NoColor bool
	Theme   theme.Mode
	Profile colorprofile.Profile
	// Now is the clock of the idle column; nil means time.Now.
	Now func() time.Time
	// Guards are judged on every conversation's events as they arrive;
	// a pause or interrupt guard stops a run through Steer, and its row
	// is marked.
	Guards []guard.Rule
	// Steer gives the controls of a conversation (pause, resume,
	// interrupt, message, policy), bound to it; nil, or a nil Steering,
	// for one whose source offers none here.
	Steer func(ref model.ConversationRef) conversation.Steering
}

// Fleet is the fleet table: every conversation of the fleet, one row each,
// live. It folds the feed into a fleet.Fleet (derived state, no events)
// and draws the rows a fleet.Query selects. It is a pointer, changed in
// place by Update.
type Fleet struct {
	// Base addresses the messages of the table's commands (its feed, its
	// clock), so they reach it while a conversation is on top.
	tui.Base
	// Common is how the table draws, measures (the width model as the
	// router last told it) and reads the time (the idle column's clock).
	tui.Common
	opts   FleetOptions
	keys   tui.FleetKeyMap
	fleet  *fleet.Fleet
	colour tui.Colours
	styles theme.Styles
	width  int
	height int
	now    time.Time

	query fleet.Query
	// statusAt is the position of query.Status in fleetStatuses.
	statusAt  int
	filtering bool
	in        textinput.Model

	// rows are the rows shown, in order; heads[i] is the group heading
	// drawn above rows[i], if any.
	rows  []fleet.Row
	heads map[int]fleet.Group
	// spare is the buffer patch builds the next rows in; patchable says
	// the last arrange nested nothing, and parents are the conversations
	// some row names as its parent (see patch).
	spare     []fleet.Row
	patchable bool
	parents   map[model.ConversationRef]bool
	// selected is the conversation under the cursor, kept across
	// re-sorting once the user moved it (until then the cursor stays on
	// the first row, the most urgent); cursor is its position in rows.
	selected model.ConversationRef
	moved    bool
	cursor   int
	top      int // first line of the body on the screen

	feedDone bool
	// overlay is the stack of open dialogs (the key reference), drawn
	// over the table; the top one reads the keys first (tui/dialog).
	overlay dialog.Overlay
	// opening is the conversation being opened ("" id when none), and
	// resuming is set while its sandbox is being resumed.
	opening  model.ConversationRef
	resuming bool
	// endOpening cancels the context of the conversation being opened,
	// should opening it fail.
	endOpening context.CancelFunc
	// openGen counts the opens started: the answer of an open that was
	// stopped (esc) carries an older one and is dropped.
	openGen int
	flash   string

	// ask is the control being asked about or the message being written
	// (fleet_steer.go).
	ask fleetAsk
	// guards are where FleetOptions.Guards stand (fleet_guard.go).
	guards tableGuards
	// Marked are the conversations marked to compare (fleet_compare.go).
	Marked []model.ConversationRef
	// notifier limits the notifications; flushing is set while a tick
	// to send what it holds is on its way.
	notifier fleet.Notifier
	flushing bool
}

// fleetStatuses are the statuses f cycles through: all, those needing
// attention, then each status.
var fleetStatuses = []string{"", fleet.StatusAttention, model.StatusRunning, model.StatusWaitingForConfirmation,
	model.StatusFinished, model.StatusError, model.StatusStuck, model.StatusPaused, model.StatusIdle}

// Messages of the fleet table's commands.
type (
	fleetUpdatesMsg struct {
		tui.Addr
		ups []model.FleetUpdate
	}
	fleetFeedClosedMsg struct{ tui.Addr }
	fleetTickMsg       struct{ tui.Addr }
	fleetFlushMsg      struct{ tui.Addr }
	fleetOpenedMsg     struct {
		tui.Addr
		gen  int
		ref  model.ConversationRef
		opts conversation.Options
		err  error
	}
)

// fleetDrain is how many slices already waiting in the feed one frame
// takes at most, so a burst is folded in one frame, not one per slice.
const fleetDrain = 64

// Common is the table's Common as its options give it: how it draws and
// its clock. It holds it and hands it on to the screens it opens itself
// (a compare of two marked rows); a row's conversation gets its options
// from Open.
func (o FleetOptions) Common() tui.Common {
	return tui.Common{NoColor: o.NoColor, Theme: o.Theme, Profile: o.Profile, Now: o.Now}
}

// NewFleet builds the fleet table over opts.Feed.
func NewFleet(opts FleetOptions) *Fleet {
	keys := opts.KeyMap
	if len(keys.Open.Keys()) == 0 {
		keys = tui.DefaultFleetKeyMap()
	}
	c := tui.NewColours(opts.Theme, opts.Profile, opts.NoColor)
	f := &Fleet{Base: tui.NewBase(), Common: opts.Common(), opts: opts, keys: keys, fleet: fleet.New(), colour: c, styles: c.Styles(),
		width: 80, height: 24, query: fleet.Query{Sort: fleet.ColIdle}}
	f.now = f.Clock()
	if opts.Order != nil {
		f.query = *opts.Order
	}
	f.arrange()
	return f
}

// Crumb names the table in the breadcrumb of the views opened from it.
func (f *Fleet) Crumb() string { return "fleet" }

// Init starts reading the feed and the clock of the idle column.
func (f *Fleet) Init() tea.Cmd {
	return tea.Batch(f.colour.Init(), f.waitFeed(), f.tick())
}

// SetSize gives the table the terminal's size.
func (f *Fleet) SetSize(w, h int) {
	f.width, f.height = w, h
	f.scrollToCursor()
}

// setCells implements measured: the table measures under the terminal's
// width model; it keeps no rows measured under another.
func (f *Fleet) SetCells(c text.Cells) tea.Cmd {
	f.Cells = c
	return nil
}

// waitFeed reads the next slices of the feed.
func (f *Fleet) waitFeed() tea.Cmd {
	feed, to := f.opts.Feed, f.Addr()
	if feed == nil || f.feedDone {
		return nil
	}
	return func() tea.Msg {
		ups, ok := <-feed
		if !ok {
			return fleetFeedClosedMsg{Addr: to}
		}
		owned := false // ups is the sender's slice until copied
		for range fleetDrain {
			select {
			case more, ok := <-feed:
				if !ok {
					return fleetUpdatesMsg{Addr: to, ups: ups} // the close is read again next time
				}
				if !owned {
					ups, owned = append(make([]model.FleetUpdate, 0, len(ups)+len(more)), ups...), true
				}
				ups = append(ups, more...)
				continue
			default:
			}
			break
		}
		return fleetUpdatesMsg{Addr: to, ups: ups}
	}
}

func (f *Fleet) tick() tea.Cmd {
	to := f.Addr()
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return fleetTickMsg{Addr: to} })
}

// Update answers a message.
func (f *Fleet) Update(msg tea.Msg) tea.Cmd {
	if _, key := msg.(tea.KeyPressMsg); !key {
		// The open dialogs see the rest first: the mouse and pastes of
		// the top one, the results of their commands. Keys go through
		// key, where ctrl+c and what is asked come first.
		if cmd, took := f.overlay.Update(msg); took {
			return cmd
		}
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.SetSize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg, tea.ColorProfileMsg:
		if f.colour.Update(msg) {
			f.styles = f.colour.Styles()
		}
	case fleetUpdatesMsg:
		return tea.Batch(f.ingest(msg.ups), f.waitFeed())
	case fleetFeedClosedMsg:
		f.feedDone = true
	case fleetFlushMsg:
		f.flushing = false
		f.now = f.Clock()
		return f.ring(f.notifier.Flush(f.now))
	case fleetTickMsg:
		// The idle column counts from the new time; no order depends
		// on it (rows sort by the time of the last activity).
		f.now = f.Clock()
		return f.tick()
	case fleetOpenedMsg:
		return f.show(msg)
	case resumeAnsweredMsg:
		return f.answered(msg)
	case fleetControlDoneMsg:
		f.flash = msg.text
	case conversation.ControlProgressMsg:
		f.flash = msg.Text
		return msg.Next
	case fleetGuardDoneMsg:
		f.guardDone(msg)
	case FleetCompareMsg:
		return f.showCompare(msg)
	case tea.KeyPressMsg:
		return f.key(msg)
	case tea.MouseWheelMsg:
		return f.handleWheel(msg)
	case tea.MouseClickMsg:
		return f.handleClick(msg)
	case tea.PasteMsg:
		if f.filtering {
			f.filterInput(msg)
		}
		if f.ask.what == conversation.CtlMessage && f.ask.area != nil {
			f.pasteMessage(msg)
		}
	}
	return nil
}

// ingest folds a slice of updates and rings for the conversations that
// newly need attention.
func (f *Fleet) ingest(ups []model.FleetUpdate) tea.Cmd {
	f.now = f.Clock()
	changes := f.fleet.ApplyAt(ups, f.now)
	if !f.patch(touchedBy(ups)) {
		f.arrange()
	}
	guards := f.guardUpdates(ups)
	if !f.opts.Notify {
		return guards
	}
	return tea.Batch(guards, f.ring(f.notifier.Raise(f.now, changes)))
}

// ring sends a notification when there is one, and comes back when the
// rate limit holds one back (fleet.Notifier): a flapping status rings at
// most once a second, each conversation once in ten.
func (f *Fleet) ring(n fleet.Notice, ok bool) tea.Cmd {
	var cmds []tea.Cmd
	if ok {
		cmds = append(cmds, tea.Raw(fleetNotification(n, f.opts.Tmux)))
	}
	if d, held := f.notifier.Wait(f.now); held && !f.flushing {
		f.flushing = true
		to := f.Addr()
		cmds = append(cmds, tea.Tick(d, func(time.Time) tea.Msg { return fleetFlushMsg{Addr: to} }))
	}
	return tea.Batch(cmds...)
}

// key answers a key press.
func (f *Fleet) key(msg tea.KeyPressMsg) tea.Cmd {
	k := f.keys
	if key.Matches(msg, k.Interrupt) {
		return tea.Interrupt
	}
	if f.filtering {
		switch {
		case key.Matches(msg, k.Accept):
			f.filtering = false
		case key.Matches(msg, k.Clear):
			f.filtering = false
			f.query.Text = ""
			f.arrange()
		default:
			f.filterInput(msg)
		}
		return nil
	}
	if f.ask.active() {
		return f.answerControl(msg)
	}
	if f.opening.ID != "" && key.Matches(msg, k.CancelOpen) {
		f.stopOpening()
		return nil
	}
	// The open dialogs read the keys next: esc above stops an open in
	// progress first, even over the help, as it always has.
	f.fitDialogs()
	if cmd, took := f.overlay.Update(msg); took {
		return cmd
	}
	f.flash = ""
	switch {
	case key.Matches(msg, k.Quit):
		// Back one screen; at the root, the program ends.
		return tui.Pop()
	case key.Matches(msg, k.Help):
		f.openHelp()
	case key.Matches(msg, k.Down):
		f.move(1)
	case key.Matches(msg, k.Up):
		f.move(-1)
	case key.Matches(msg, k.Top):
		f.move(-len(f.rows))
	case key.Matches(msg, k.Bottom):
		f.move(len(f.rows))
	case key.Matches(msg, k.PageDown):
		f.move(max(f.bodyHeight()-1, 1))
	case key.Matches(msg, k.PageUp):
		f.move(-max(f.bodyHeight()-1, 1))
	case key.Matches(msg, k.Sort):
		f.query.Sort = (f.query.Sort + 1) % fleet.Column(len(fleet.Columns()))
		if f.query.Sort == fleet.ColRuntime && !f.anyRuntime() {
			f.query.Sort = fleet.ColTitle // not shown: not a sort either
		}
		f.arrange()
	case key.Matches(msg, k.Reverse):
		f.query.Desc = !f.query.Desc
		f.arrange()
	case key.Matches(msg, k.Group):
		f.query.BySource = !f.query.BySource
		f.arrange()
	case key.Matches(msg, k.Status):
		f.statusAt = (f.statusAt + 1) % len(fleetStatuses)
		f.query.Status = fleetStatuses[f.statusAt]
		f.arrange()
	case key.Matches(msg, k.Filter):
		f.filtering = true
		f.in = conversation.NewTextInput()
		f.in.SetValue(f.query.Text)
		f.in.CursorEnd()
	case key.Matches(msg, k.Back):
		f.query.Text, f.query.Status, f.statusAt = "", "", 0
		f.arrange()
	case key.Matches(msg, k.Seen):
		if r, ok := f.current(); ok {
			f.fleet.Seen(r.Ref)
			f.arrange()
		}
	case key.Matches(msg, k.Open):
		return f.open()
	case key.Matches(msg, k.PauseAll):
		return f.pauseAll()
	case key.Matches(msg, k.Mark):
		f.toggleMark()
	case key.Matches(msg, k.Compare):
		return f.compareMarked()
	default:
		if what, ok := fleetControlOf(k, msg); ok {
			return f.controlKey(what)
		}
		// A key of the conversation's view (a, x, space…) says so here.
		f.flash = tui.Unsupported(tui.FleetKeyTable(f.keys), msg, "a conversation's view: enter opens one")
	}
	return nil
}

// filterInput hands a key or a paste to the filter line; the rows follow
// its text as it is typed.
func (f *Fleet) filterInput(msg tea.Msg) {
	f.in, _ = f.in.Update(msg)
	if f.in.Value() != f.query.Text {
		f.query.Text = f.in.Value()
		f.arrange()
	}
}

// current is the row under the cursor.
func (f *Fleet) current() (fleet.Row, bool) {
	if f.cursor < 0 || f.cursor >= len(f.rows) {
		return fleet.Row{}, false
	}
	return f.rows[f.cursor], true
}

// move moves the cursor by n rows, within the rows.
func (f *Fleet) move(n int) {
	if len(f.rows) == 0 {
		return
	}
	f.cursor = min(max(f.cursor+n, 0), len(f.rows)-1)
	f.selected = f.rows[f.cursor].Ref
	f.moved = true
	f.scrollToCursor()
}

// arrange recomputes the rows shown from the fleet and the query, keeping
// the cursor on the same conversation when it is still shown.
func (f *Fleet) arrange() {
	groups := f.fleet.Rows(f.query)
	f.rows = f.rows[:0]
	f.heads = map[int]fleet.Group{}
	for _, g := range groups {
		if g.Attention || f.query.BySource || len(groups) > 1 {
			f.heads[len(f.rows)] = g
		}
		f.rows = append(f.rows, g.Rows...)
	}
	f.notePatchable()
	f.place()
}

// place keeps the cursor on the selected conversation once the person
// moved it (else on its position), after the rows changed.
func (f *Fleet) place() {
	at := -1
	for i, r := range f.rows {
		if f.moved && r.Ref == f.selected {
			at = i
			break
		}
	}
	if at < 0 {
		at = min(max(f.cursor, 0), len(f.rows)-1)
	}
	f.cursor = at
	if at >= 0 {
		f.selected = f.rows[at].Ref
	}
	f.scrollToCursor()
}

// lineOf is the body line of row i: rows and the group headings above
// them.
func (f *Fleet) lineOf(i int) int {
	n := i
	for at := range f.heads {
		if at <= i {
			n++
		}
	}
	return n
}

// scrollToCursor keeps the cursor's row (and its group heading, when it
// is the first of its group) on the screen.
func (f *Fleet) scrollToCursor() {
	if f.cursor < 0 {
		f.top = 0
		return
	}
	h := f.bodyHeight()
	line := f.lineOf(f.cursor)
	first := line
	if _, ok := f.heads[f.cursor]; ok {
		first--
	}
	if first < f.top {
		f.top = first
	}
	if line >= f.top+h {
		f.top = line - h + 1
	}
	f.top = max(f.top, 0)
}
